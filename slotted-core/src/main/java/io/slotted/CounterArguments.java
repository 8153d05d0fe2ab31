package io.slotted;

import static io.slotted.SlottedCounters.MAX_DELTA;
import static io.slotted.SlottedCounters.RESERVED_RECORD_TYPE;

import java.util.Objects;

/**
 * The checks every call applies to its arguments, for front ends (a service, a protocol adapter)
 * that want to refuse bad input before doing any other work. The calls of
 * {@link SlottedCounters} apply them themselves.
 */
public final class CounterArguments {
    private CounterArguments() {
    }

    /**
     * Checks an idempotency key against the rule every keyed call applies: 1 to 128 printable
     * ASCII characters (space to tilde), compared exactly. Front ends call this to refuse a bad key
     * before doing any other work; the keyed calls check it themselves.
     *
     * @param idempotencyKey the key a caller sent
     * @return the key, unchanged
     * @throws NullPointerException if {@code idempotencyKey} is null
     * @throws IllegalArgumentException if the key is empty, longer than 128 characters, or holds a
     *     character that is not printable ASCII; the message says which
     */
    public static String checkIdempotencyKey(String idempotencyKey) {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey must not be null");
        boolean printable = idempotencyKey.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
        if (idempotencyKey.isEmpty() || idempotencyKey.length() > 128 || !printable) {
            throw new IllegalArgumentException("idempotencyKey must be 1 to 128 printable ASCII"
                    + " characters, but had " + idempotencyKey.length() + " characters"
                    + (printable ? "" : ", some of them not printable ASCII"));
        }
        return idempotencyKey;
    }

    /**
     * Checks an increment's amount against the rule every call that adds applies: not 0, and
     * within {@code ±}{@link SlottedCounters#MAX_DELTA}.
     *
     * @param recordType the counter's type, for the message
     * @param recordId the counter's id, for the message
     * @param delta the amount a caller gave
     * @return the amount, unchanged
     * @throws IllegalArgumentException if it is 0 or larger than {@link SlottedCounters#MAX_DELTA} either way
     */
    public static long checkDelta(int recordType, long recordId, long delta) {
        if (delta == 0) {
            throw new IllegalArgumentException("delta must not be 0 (counter (record_type="
                    + recordType + ", record_id=" + recordId + "))");
        }
        if (delta < -MAX_DELTA || delta > MAX_DELTA) {
            throw new IllegalArgumentException("delta must be between -" + MAX_DELTA + " and "
                    + MAX_DELTA + " (2^52 - 1, the most one slot row holds), but was " + delta
                    + " (counter (record_type=" + recordType + ", record_id=" + recordId
                    + ")); add a larger amount as several increments");
        }
        return delta;
    }

    /**
     * Checks a record type against {@link SlottedCounters#RESERVED_RECORD_TYPE}.
     *
     * @param recordType the type a caller gave
     * @return the type, unchanged
     * @throws IllegalArgumentException if it is the reserved type
     */
    public static int checkRecordType(int recordType) {
        if (recordType == RESERVED_RECORD_TYPE) {
            throw new IllegalArgumentException("record_type " + recordType + " is reserved for"
                    + " Slotted's own rows (see SlottedCounters.RESERVED_RECORD_TYPE); use any other int");
        }
        return recordType;
    }
}
