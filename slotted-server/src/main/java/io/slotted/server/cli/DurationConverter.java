package io.slotted.server.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration as people type one: {@code 500ms}, {@code 10s}, {@code 2m}, and {@code 0}, which
 * needs no unit (an option that takes 0 says what it means by it).
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)");

    @Override
    public Duration convert(String value) {
        String text = value.strip();
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher matcher = DURATION.matcher(text);
        if (!matcher.matches()) {
            throw new TypeConversionException("'" + value + "' is not a duration: use a whole"
                    + " number with ms, s or m, such as 10s");
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
    }
}
