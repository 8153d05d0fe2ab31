package io.slotted.server.config;

import io.slotted.BucketUnit;
import io.slotted.TimeBuckets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The counter types that also count per time bucket, as the {@code --buckets} option gives them:
 * {@code downloads=hour:30d}, a type (a configured name or a number), a unit ({@code minute},
 * {@code hour} or {@code day}) and a retention in days, hours or minutes.
 */
public final class TypeBuckets {
    private static final Pattern SPEC = Pattern.compile("([^=]+)=(minute|hour|day):(\\d{1,7})([dhm])");

    private TypeBuckets() {
    }

    /**
     * Reads the specs, each {@code TYPE=UNIT:RETENTION}.
     *
     * @param specs the specs; each may also hold several separated by commas
     * @param names the configured type names, for types given by name
     * @return each record type with its buckets, in the order given
     * @throws IllegalArgumentException if a spec is malformed, names an unknown type, repeats a
     *     type, or has a retention the library refuses; the message says which
     */
    public static Map<Integer, TimeBuckets> parse(List<String> specs, TypeNames names) {
        Map<Integer, TimeBuckets> buckets = new LinkedHashMap<>();
        for (String option : specs) {
            for (String spec : option.split(",", -1)) {
                if (spec.isBlank()) {
                    continue;
                }
                Matcher matcher = SPEC.matcher(spec.strip());
                if (!matcher.matches()) {
                    throw new IllegalArgumentException("buckets must be TYPE=minute|hour|day:RETENTION"
                            + " with the retention in d, h or m, such as downloads=hour:30d, but had '"
                            + Excerpt.of(spec.strip()) + "'");
                }
                CounterType type = names.resolve(matcher.group(1));
                TimeBuckets kept = new TimeBuckets(BucketUnit.valueOf(matcher.group(2).toUpperCase(Locale.ROOT)),
                        retention(Long.parseLong(matcher.group(3)), matcher.group(4)));
                if (buckets.put(type.recordType(), kept) != null) {
                    throw new IllegalArgumentException("buckets give type " + type + " twice");
                }
            }
        }
        return Collections.unmodifiableMap(buckets);
    }

    private static Duration retention(long amount, String unit) {
        return switch (unit) {
            case "d" -> Duration.ofDays(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofMinutes(amount);
        };
    }
}
