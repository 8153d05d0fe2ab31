package io.slotted.server.cli.bucket;

import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.CounterType;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.config.WindowBound;
import java.time.Instant;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of the commands that read time buckets: the window, and the types' buckets. */
public final class WindowOptions {
    @Option(names = "--from", required = true, paramLabel = "INSTANT",
            description = "The window's start, inclusive: an ISO-8601 instant or a date (UTC).")
    String from;

    @Option(names = "--to", required = true, paramLabel = "INSTANT",
            description = "The window's end, exclusive: an ISO-8601 instant or a date (UTC).")
    String to;

    @Mixin
    BucketsOption buckets;

    /**
     * The counter settings for reading a type's buckets.
     *
     * @param types the configured type names
     * @param type the type to read
     * @return the default settings with the types' buckets
     * @throws IllegalArgumentException if {@code --buckets} does not give the type any, saying how
     */
    CounterSettings settingsFor(TypeNamesOption types, CounterType type) {
        CounterSettings settings = CounterSettings.DEFAULTS.withBuckets(buckets.kept(types));
        if (!settings.buckets().containsKey(type.recordType())) {
            throw new IllegalArgumentException("type " + type + " keeps no time buckets here: give the"
                    + " buckets it was counted with, as the service was given them, such as --buckets "
                    + type + "=hour:30d (or SLOTTED_BUCKETS)");
        }
        return settings;
    }

    Instant from() {
        return WindowBound.parse("--from", from);
    }

    Instant to() {
        return WindowBound.parse("--to", to);
    }
}
