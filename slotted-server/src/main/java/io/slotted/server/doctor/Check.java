package io.slotted.server.doctor;

/**
 * One thing the doctor checked, and what it found.
 *
 * @param name what was checked, such as {@code innodb_flush_log_at_trx_commit} or
 *     {@code slotted_counters: INT count headroom}
 * @param value what it is now
 * @param ok whether it needs nothing done
 * @param why why it matters
 * @param advice what to do, when it is not ok; empty otherwise
 */
public record Check(String name, String value, boolean ok, String why, String advice) {
    /**
     * A check that needs nothing done.
     *
     * @param name what was checked
     * @param value what it is now
     * @param why why it matters
     * @return the check
     */
    public static Check ok(String name, String value, String why) {
        return new Check(name, value, true, why, "");
    }

    /**
     * A check that found something to do.
     *
     * @param name what was checked
     * @param value what it is now
     * @param why why it matters
     * @param advice what to do
     * @return the check
     */
    public static Check finding(String name, String value, String why, String advice) {
        return new Check(name, value, false, why, advice);
    }
}
