package io.slotted.server.config;

import io.slotted.WriteMode;

/**
 * How the counters are configured beyond the database: the table, the write mode, the slots.
 *
 * <p>The values are not checked here: the library's builder checks each one as it is applied and
 * names the rule, so that a rule such as the slot range is written once.
 *
 * @param table the counter table
 * @param mode how increments are written
 * @param slots slots per counter, or null for the write mode's default
 */
public record CounterSettings(String table, WriteMode mode, Integer slots) {
    /** The defaults: table {@code slotted_counters}, {@code GROUPED}, the mode's slots. */
    public static final CounterSettings DEFAULTS =
            new CounterSettings("slotted_counters", WriteMode.GROUPED, null);
}
