package io.slotted.server.cli.bucket;

import io.slotted.TimeBuckets;
import io.slotted.server.config.TypeBuckets;
import io.slotted.server.cli.TypeNamesOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --buckets} option of the commands that count or read per time bucket. */
public final class BucketsOption {
    @Option(names = "--buckets", paramLabel = "TYPE=UNIT:RETENTION", defaultValue = "${env:SLOTTED_BUCKETS}",
            description = "A counter type that also counts per time bucket: minute, hour or day (UTC),"
                    + " kept for a retention in d, h or m, such as downloads=hour:30d. Repeatable, or"
                    + " comma-separated. Env: SLOTTED_BUCKETS.")
    List<String> specs = new ArrayList<>();

    /**
     * The types' buckets.
     *
     * @param types the configured type names, for types given by name
     * @return each record type with its buckets; none when the option was not given
     * @throws IllegalArgumentException if a spec is malformed
     */
    public Map<Integer, TimeBuckets> kept(TypeNamesOption types) {
        return TypeBuckets.parse(specs == null ? List.of() : specs, types.names());
    }
}
