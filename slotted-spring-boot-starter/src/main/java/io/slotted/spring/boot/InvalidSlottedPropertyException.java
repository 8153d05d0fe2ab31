package io.slotted.spring.boot;

/**
 * A {@code slotted.*} property whose value the counters refuse. Start-up stops with it, and
 * {@link SlottedPropertyFailureAnalyzer} tells the user which property to change and why.
 */
public final class InvalidSlottedPropertyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String property;
    private final transient Object value;

    InvalidSlottedPropertyException(String property, Object value, RuntimeException reason) {
        super(property + (value == null ? "" : "=" + value) + " is refused: " + reason.getMessage(),
                reason);
        this.property = property;
        this.value = value;
    }

    /**
     * The property to change, such as {@code slotted.slots}.
     *
     * @return the property's name
     */
    public String property() {
        return property;
    }

    /**
     * The value that was refused.
     *
     * @return the value as bound, or null when the property is missing
     */
    public Object value() {
        return value;
    }

    /**
     * Why it was refused, in the library's words.
     *
     * @return the rule and the bad value
     */
    public String reason() {
        return getCause().getMessage();
    }
}
