package io.slotted;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The periods a quota counts in: every minute, hour, day, week (from Monday) or calendar month of
 * a time zone, or every fixed duration. A windowed limit ({@link Limits#per(Window)}) bounds what
 * each counter adds within one window; the next window counts from 0 again.
 *
 * <p>Calendar windows follow the zone's clock, daylight saving included: a day window of
 * {@code Europe/Paris} starts at local midnight and lasts 23 or 25 hours on the days the clocks
 * change. A month window starts at midnight of its anchor day, the 1st unless given, clamped to
 * the month's last day in shorter months (a window anchored on the 31st starts on 30 April and
 * 28 or 29 February). A window of a fixed duration is aligned to the epoch, whatever the zone:
 * windows of 90 seconds start at whole multiples of 90 seconds since 1970-01-01T00:00Z.
 *
 * <p>Written as {@link #parse} reads it and {@link #toString()} writes it: {@code minute},
 * {@code hour}, {@code day}, {@code week}, {@code month}, {@code month+15} (anchored on the
 * 15th), a duration {@code 90s}, {@code 15m}, {@code 2h}, {@code 7d}; a calendar window may name
 * its zone, {@code day@Europe/Paris}, UTC otherwise.
 */
public final class Window {
    /** Every minute, UTC. */
    public static final Window MINUTE = new Window(Kind.MINUTE, ZoneOffset.UTC, 1, null);
    /** Every hour, UTC. */
    public static final Window HOUR = new Window(Kind.HOUR, ZoneOffset.UTC, 1, null);
    /** Every day, midnight to midnight UTC. */
    public static final Window DAY = new Window(Kind.DAY, ZoneOffset.UTC, 1, null);
    /** Every week, from Monday midnight UTC. */
    public static final Window WEEK = new Window(Kind.WEEK, ZoneOffset.UTC, 1, null);
    /** Every calendar month, from the 1st at midnight UTC. */
    public static final Window MONTH = new Window(Kind.MONTH, ZoneOffset.UTC, 1, null);

    /** The shortest fixed window: one second. */
    public static final Duration SHORTEST = Duration.ofSeconds(1);
    /** The longest fixed window: 366 days. */
    public static final Duration LONGEST = Duration.ofDays(366);

    private static final Pattern SPEC = Pattern.compile(
            "(minute|hour|day|week|month(?:\\+(\\d{1,2}))?|(\\d{1,9})([smhd]))(?:@(.+))?");

    private final Kind kind;
    private final ZoneId zone;
    private final int anchorDay;
    private final Duration fixed;

    private Window(Kind kind, ZoneId zone, int anchorDay, Duration fixed) {
        this.kind = kind;
        this.zone = zone;
        this.anchorDay = anchorDay;
        this.fixed = fixed;
    }

    /**
     * Windows of a fixed duration, aligned to the epoch.
     *
     * @param length how long each window lasts: whole seconds, from {@link #SHORTEST} to
     *     {@link #LONGEST}
     * @return the windows
     * @throws IllegalArgumentException if the length is not whole seconds or out of that range
     */
    public static Window every(Duration length) {
        Objects.requireNonNull(length, "length must not be null");
        if (length.compareTo(SHORTEST) < 0 || length.compareTo(LONGEST) > 0 || length.getNano() != 0) {
            throw new IllegalArgumentException("a window must last whole seconds, from 1 second to 366 days,"
                    + " but was " + length);
        }
        return new Window(Kind.FIXED, ZoneOffset.UTC, 1, length);
    }

    /**
     * The same calendar windows in another time zone.
     *
     * @param zone the zone whose clock the windows follow
     * @return the windows
     * @throws IllegalArgumentException if this is a window of a fixed duration, which has no zone
     */
    public Window in(ZoneId zone) {
        Objects.requireNonNull(zone, "zone must not be null");
        if (kind == Kind.FIXED) {
            throw new IllegalArgumentException("a window of a fixed duration (" + this + ") is aligned to the epoch"
                    + " and takes no zone; give a calendar window (minute, hour, day, week, month) a zone");
        }
        return new Window(kind, zone, anchorDay, null);
    }

    /**
     * The same monthly windows, starting on another day of the month.
     *
     * @param day the day each window starts on, 1 to 31; clamped to the last day of shorter months
     * @return the windows
     * @throws IllegalArgumentException if this is not a month window, or the day is out of range
     */
    public Window startingOnDay(int day) {
        if (kind != Kind.MONTH) {
            throw new IllegalArgumentException("only a month window starts on a day of the month, not " + this);
        }
        if (day < 1 || day > 31) {
            throw new IllegalArgumentException("a month window starts on a day from 1 to 31, but was " + day);
        }
        return new Window(kind, zone, day, null);
    }

    /**
     * Reads a window as {@link #toString()} writes it: {@code hour}, {@code month+15@Europe/Paris},
     * {@code 90s}.
     *
     * @param text the window
     * @return the window
     * @throws IllegalArgumentException if the text is not a window, naming what is wrong
     */
    public static Window parse(String text) {
        Matcher spec = SPEC.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!spec.matches()) {
            throw new IllegalArgumentException("a window is minute, hour, day, week, month, month+DAY or a duration"
                    + " such as 90s, 15m, 2h or 7d, optionally @ZONE (such as day@Europe/Paris), but was '"
                    + text + "'");
        }
        Window window;
        if (spec.group(3) != null) {
            long amount = Long.parseLong(spec.group(3));
            window = every(Duration.of(amount, switch (spec.group(4)) {
                case "s" -> ChronoUnit.SECONDS;
                case "m" -> ChronoUnit.MINUTES;
                case "h" -> ChronoUnit.HOURS;
                default -> ChronoUnit.DAYS;
            }));
        } else {
            window = switch (spec.group(1).replaceAll("\\+.*", "")) {
                case "minute" -> MINUTE;
                case "hour" -> HOUR;
                case "day" -> DAY;
                case "week" -> WEEK;
                default -> spec.group(2) == null ? MONTH : MONTH.startingOnDay(Integer.parseInt(spec.group(2)));
            };
        }
        String zone = text.trim().contains("@") ? text.trim().substring(text.trim().indexOf('@') + 1) : null;
        return zone == null ? window : window.in(zone(zone));
    }

    private static ZoneId zone(String name) {
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("unknown time zone '" + name + "': give a region such as Europe/Paris,"
                    + " or an offset such as +02:00", e);
        }
    }

    /**
     * The start of the window an instant falls in.
     *
     * @param instant any instant
     * @return the first instant of its window
     */
    public Instant startOf(Instant instant) {
        if (kind == Kind.FIXED) {
            long length = fixed.getSeconds();
            return Instant.ofEpochSecond(Math.floorDiv(instant.getEpochSecond(), length) * length);
        }
        ZonedDateTime local = instant.atZone(zone);
        return switch (kind) {
            case MINUTE -> local.truncatedTo(ChronoUnit.MINUTES).toInstant();
            case HOUR -> local.truncatedTo(ChronoUnit.HOURS).toInstant();
            case DAY -> local.toLocalDate().atStartOfDay(zone).toInstant();
            case WEEK -> local.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY))
                    .atStartOfDay(zone).toInstant();
            default -> monthStartOf(local);
        };
    }

    /**
     * The end of the window an instant falls in: the start of the next one, when counting
     * starts from 0 again.
     *
     * @param instant any instant
     * @return the first instant after its window
     */
    public Instant endOf(Instant instant) {
        Instant start = startOf(instant);
        if (kind == Kind.FIXED) {
            return start.plus(fixed);
        }
        ZonedDateTime local = start.atZone(zone);
        return switch (kind) {
            // An hour or a minute later in the instant's timeline, so that the repeated hour
            // when clocks go back is a window of its own.
            case MINUTE -> start.plus(Duration.ofMinutes(1));
            case HOUR -> startOf(start.plus(Duration.ofHours(1)));
            case DAY -> local.toLocalDate().plusDays(1).atStartOfDay(zone).toInstant();
            case WEEK -> local.toLocalDate().plusWeeks(1).atStartOfDay(zone).toInstant();
            // A month window starts in the month it is named after, so the next starts in the next.
            default -> anchorIn(YearMonth.from(local).plusMonths(1)).atStartOfDay(zone).toInstant();
        };
    }

    /** The month window's start: this month's anchor day if it has begun, else last month's. */
    private Instant monthStartOf(ZonedDateTime local) {
        YearMonth month = YearMonth.from(local);
        ZonedDateTime start = anchorIn(month).atStartOfDay(zone);
        if (local.isBefore(start)) {
            start = anchorIn(month.minusMonths(1)).atStartOfDay(zone);
        }
        return start.toInstant();
    }

    /** The anchor day in a month, clamped to its last day. */
    private LocalDate anchorIn(YearMonth month) {
        return month.atDay(Math.min(anchorDay, month.lengthOfMonth()));
    }

    /**
     * The longest one window can last: a month's 31 days, a week's 7 days, a day's 25 hours
     * where clocks go back, or the fixed length. Idempotency keys of windowed types are kept at
     * least this long.
     *
     * @return the longest window
     */
    public Duration longest() {
        return switch (kind) {
            case MINUTE -> Duration.ofMinutes(1);
            case HOUR -> Duration.ofHours(2);
            case DAY -> Duration.ofHours(25);
            case WEEK -> Duration.ofDays(7).plusHours(1);
            case MONTH -> Duration.ofDays(31).plusHours(1);
            case FIXED -> fixed;
        };
    }

    /** As {@link #parse} reads it: {@code hour}, {@code month+15@Europe/Paris}, {@code 90s}. */
    @Override
    public String toString() {
        String text = switch (kind) {
            case FIXED -> fixedText();
            case MONTH -> anchorDay == 1 ? "month" : "month+" + anchorDay;
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
        return zone.equals(ZoneOffset.UTC) ? text : text + "@" + zone.getId();
    }

    private String fixedText() {
        long seconds = fixed.getSeconds();
        if (seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds % 3_600 == 0) {
            return seconds / 3_600 + "h";
        }
        return seconds % 60 == 0 ? seconds / 60 + "m" : seconds + "s";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Window window && kind == window.kind && zone.equals(window.zone)
                && anchorDay == window.anchorDay && Objects.equals(fixed, window.fixed);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, zone, anchorDay, fixed);
    }

    private enum Kind {
        MINUTE, HOUR, DAY, WEEK, MONTH, FIXED
    }
}
