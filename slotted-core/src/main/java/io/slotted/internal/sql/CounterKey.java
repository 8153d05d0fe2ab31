package io.slotted.internal.sql;

/**
 * One counter: what is counted and whose count it is.
 *
 * @param recordType the counter type
 * @param recordId the owner's id
 */
public record CounterKey(int recordType, long recordId) implements Comparable<CounterKey> {

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
