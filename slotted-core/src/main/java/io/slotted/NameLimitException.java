package io.slotted;

/**
 * A new name was refused by one of the bounds that keep a client from filling the name
 * dictionary: new names per second, the number of type names, or how many lookups may wait at
 * once. Nothing was recorded and nothing was counted. Names already recorded are never refused,
 * so the caller may retry later or use a name that exists.
 */
public class NameLimitException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the bound, its setting, and what to do
     */
    public NameLimitException(String message) {
        super(message);
    }
}
