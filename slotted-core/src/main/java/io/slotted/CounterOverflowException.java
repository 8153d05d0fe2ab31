package io.slotted;

/**
 * A value left the range its column or Java type can hold: an increment that would overflow a slot
 * (rejected by the database; nothing changes), or a total past the signed 64-bit range on read
 * (reported, never wrapped).
 */
public class CounterOverflowException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which counter overflowed and by how much, when known
     */
    public CounterOverflowException(String message) {
        super(message);
    }

    /**
     * Creates the exception around the driver's failure.
     *
     * @param message which counter overflowed
     * @param cause the driver's failure
     */
    public CounterOverflowException(String message, Throwable cause) {
        super(message, cause);
    }
}
