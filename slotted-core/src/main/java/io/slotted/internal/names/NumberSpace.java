package io.slotted.internal.names;

import io.slotted.CounterNames;

/**
 * A range of numbers that names are mapped into, and each name's candidates in it: the hash
 * folded into the range, then each next number up, wrapping at the range's end.
 */
enum NumberSpace {
    /** Record ids of string ids: −2^63 up to, not including, −2^62. */
    IDS(Long.MIN_VALUE, CounterNames.MAPPED_IDS_END - Long.MIN_VALUE),
    /** Record types of type names created on first use: 2^30 up to 2^31 − 1. */
    TYPES(CounterNames.FIRST_NAMED_TYPE, (long) Integer.MAX_VALUE - CounterNames.FIRST_NAMED_TYPE + 1);

    private final long first;
    private final long size;

    NumberSpace(long first, long size) {
        this.first = first;
        this.size = size;
    }

    /**
     * A name's candidate after {@code tries} taken ones.
     *
     * @param hash the name's hash
     * @param tries how many of its candidates other names held
     * @return a number in the range
     */
    long candidate(long hash, int tries) {
        return first + Math.floorMod(hash + tries, size);
    }
}
