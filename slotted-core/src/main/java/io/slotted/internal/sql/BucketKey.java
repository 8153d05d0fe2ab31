package io.slotted.internal.sql;

/**
 * One counter's time bucket, ordered as the bucket table's primary key is, so that writers take
 * its row locks in one order.
 *
 * @param recordType the counter type
 * @param bucketStart the bucket's start, in seconds since the epoch (UTC)
 * @param recordId the owner's id
 */
public record BucketKey(int recordType, long bucketStart, long recordId) implements Comparable<BucketKey> {

    @Override
    public int compareTo(BucketKey other) {
        int byType = Integer.compare(recordType, other.recordType);
        if (byType != 0) {
            return byType;
        }
        int byBucket = Long.compare(bucketStart, other.bucketStart);
        return byBucket != 0 ? byBucket : Long.compare(recordId, other.recordId);
    }

    /**
     * The counter whose bucket this is.
     *
     * @return the counter
     */
    public CounterKey counter() {
        return new CounterKey(recordType, recordId);
    }

    @Override
    public String toString() {
        return "(record_type=" + recordType + ", record_id=" + recordId + ", bucket "
                + java.time.Instant.ofEpochSecond(bucketStart) + ")";
    }
}
