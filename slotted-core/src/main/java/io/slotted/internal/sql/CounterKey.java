package io.slotted.internal.sql;

/**
 * One counter: what is counted and whose count it is.
 *
 * @param recordType the counter type
 * @param recordId the owner's id
 */
public record CounterKey(int recordType, long recordId) implements Comparable<CounterKey> {
    /**
     * The record type no counter may have, which Slotted keeps for its own rows: the flushers'
     * marks in the counter table and the type names in the name dictionary.
     */
    public static final int RESERVED_RECORD_TYPE = Integer.MIN_VALUE;

    @Override
    public int compareTo(CounterKey other) {
        int byType = Integer.compare(recordType, other.recordType);
        return byType != 0 ? byType : Long.compare(recordId, other.recordId);
    }

    @Override
    public String toString() {
        return "(record_type=" + recordType + ", record_id=" + recordId + ")";
    }
}
