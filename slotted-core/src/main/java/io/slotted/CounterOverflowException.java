package io.slotted;

import java.math.BigInteger;

/**
 * A value left the range its column or Java type can hold: an increment that would overflow a slot
 * (rejected by the database; nothing changes), or a total past the signed 64-bit range on read
 * (reported, never wrapped, with the exact total in {@link #total()}).
 */
public class CounterOverflowException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /** The total a read found, or null; BigInteger is serializable and immutable. */
    private final BigInteger total;

    /**
     * Creates the exception.
     *
     * @param message which counter overflowed and by how much, when known
     */
    public CounterOverflowException(String message) {
        super(message);
        this.total = null;
    }

    /**
     * Creates the exception around the driver's failure.
     *
     * @param message which counter overflowed
     * @param cause the driver's failure
     */
    public CounterOverflowException(String message, Throwable cause) {
        super(message, cause);
        this.total = null;
    }

    /**
     * Creates the exception for a read whose total lies outside the signed 64-bit range.
     *
     * @param message which counter overflowed and its total
     * @param total the counter's exact total
     */
    public CounterOverflowException(String message, BigInteger total) {
        super(message);
        this.total = total;
    }

    /**
     * The counter's exact total, when this exception comes from a read ({@code get} or
     * {@code getAll}) that found it outside the signed 64-bit range. It tells a caller how
     * much to add or subtract, in steps a {@code long} delta can hold, to bring the counter back
     * in range.
     *
     * @return the exact total; null when the exception reports a write that was refused (an
     *     increment that would overflow a slot, or a batch whose increments to one counter add up
     *     beyond 64 bits), since no total was read
     */
    public BigInteger total() {
        return total;
    }
}
