package io.slotted.bench;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads durations as people type them on a command line: {@code 500ms}, {@code 10s}, {@code 2m};
 * also ISO-8601 ({@code PT10S}), which is what {@link Duration#parse} alone would demand.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SHORT = Pattern.compile("(\\d+)(ms|s|m)");

    /**
     * Reads one duration.
     *
     * @param value such as {@code 500ms}, {@code 10s}, {@code 2m} or {@code PT10S}
     * @return the duration
     * @throws TypeConversionException if it is none of these
     */
    @Override
    public Duration convert(String value) {
        Matcher matcher = SHORT.matcher(value.trim());
        if (matcher.matches()) {
            long amount = Long.parseLong(matcher.group(1));
            return switch (matcher.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                default -> Duration.ofMinutes(amount);
            };
        }
        try {
            return Duration.parse(value);
        } catch (RuntimeException e) {
            throw new TypeConversionException("'" + value
                    + "' is not a duration: use a whole number with ms, s or m, such as 10s");
        }
    }
}
