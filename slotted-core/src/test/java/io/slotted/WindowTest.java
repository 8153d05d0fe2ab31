package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WindowTest {
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void calendarWindowsInUtc_startOnTheUnit_andEndWhereTheNextStarts() {
        Instant t = at("2026-11-26T13:47:12.345Z"); // a Thursday

        assertThat(Window.MINUTE.startOf(t)).isEqualTo(at("2026-11-26T13:47:00Z"));
        assertThat(Window.MINUTE.endOf(t)).isEqualTo(at("2026-11-26T13:48:00Z"));
        assertThat(Window.HOUR.startOf(t)).isEqualTo(at("2026-11-26T13:00:00Z"));
        assertThat(Window.HOUR.endOf(t)).isEqualTo(at("2026-11-26T14:00:00Z"));
        assertThat(Window.DAY.startOf(t)).isEqualTo(at("2026-11-26T00:00:00Z"));
        assertThat(Window.DAY.endOf(t)).isEqualTo(at("2026-11-27T00:00:00Z"));
        assertThat(Window.WEEK.startOf(t)).isEqualTo(at("2026-11-23T00:00:00Z"));
        assertThat(Window.WEEK.endOf(t)).isEqualTo(at("2026-11-30T00:00:00Z"));
        assertThat(Window.MONTH.startOf(t)).isEqualTo(at("2026-11-01T00:00:00Z"));
        assertThat(Window.MONTH.endOf(t)).isEqualTo(at("2026-12-01T00:00:00Z"));
    }

    @Test
    void anInstantOnAWindowsStart_isInThatWindow_andOneBeforeIsInThePreviousOne() {
        Instant start = at("2026-12-01T00:00:00Z");

        assertThat(Window.MONTH.startOf(start)).isEqualTo(start);
        assertThat(Window.MONTH.startOf(start.minusNanos(1))).isEqualTo(at("2026-11-01T00:00:00Z"));
        assertThat(Window.MONTH.endOf(start.minusNanos(1))).isEqualTo(start);
    }

    @Test
    void fixedWindows_areAlignedToTheEpoch() {
        Window ninetySeconds = Window.every(Duration.ofSeconds(90));

        assertThat(ninetySeconds.startOf(at("1970-01-01T00:02:59Z"))).isEqualTo(at("1970-01-01T00:01:30Z"));
        assertThat(ninetySeconds.endOf(at("1970-01-01T00:02:59Z"))).isEqualTo(at("1970-01-01T00:03:00Z"));
        assertThat(ninetySeconds.startOf(at("2026-11-26T13:47:12Z")).getEpochSecond() % 90).isZero();
        assertThat(ninetySeconds.startOf(at("1969-12-31T23:59:59Z"))).isEqualTo(at("1969-12-31T23:58:30Z"));
    }

    @Test
    void aMonthAnchoredOnThe31st_startsOnEachMonthsLastDayInShorterMonths() {
        Window billing = Window.MONTH.startingOnDay(31);

        assertThat(billing.startOf(at("2026-02-15T12:00:00Z"))).isEqualTo(at("2026-01-31T00:00:00Z"));
        assertThat(billing.endOf(at("2026-02-15T12:00:00Z"))).isEqualTo(at("2026-02-28T00:00:00Z"));
        assertThat(billing.startOf(at("2026-03-01T00:00:00Z"))).isEqualTo(at("2026-02-28T00:00:00Z"));
        assertThat(billing.endOf(at("2026-03-01T00:00:00Z"))).isEqualTo(at("2026-03-31T00:00:00Z"));
        assertThat(billing.startOf(at("2026-04-30T00:00:00Z"))).isEqualTo(at("2026-04-30T00:00:00Z"));
        assertThat(billing.startOf(at("2028-03-01T00:00:00Z"))).as("a leap year's February")
                .isEqualTo(at("2028-02-29T00:00:00Z"));
    }

    @Test
    void aMonthAnchoredOnThe15th_ofAZone_startsAtLocalMidnight_acrossTheYearsEnd() {
        Window billing = Window.parse("month+15@America/New_York");

        assertThat(billing.startOf(at("2027-01-10T12:00:00Z"))).isEqualTo(at("2026-12-15T05:00:00Z"));
        assertThat(billing.endOf(at("2027-01-10T12:00:00Z"))).isEqualTo(at("2027-01-15T05:00:00Z"));
        assertThat(billing.startOf(at("2027-01-15T04:59:59Z"))).as("still the 14th in New York")
                .isEqualTo(at("2026-12-15T05:00:00Z"));
    }

    @Test
    void aDayOfAZone_lasts23HoursWhenClocksGoForward_and25WhenTheyGoBack() {
        Window day = Window.DAY.in(PARIS);

        Instant spring = at("2026-03-29T12:00:00Z");
        assertThat(day.startOf(spring)).isEqualTo(at("2026-03-28T23:00:00Z"));
        assertThat(Duration.between(day.startOf(spring), day.endOf(spring))).isEqualTo(Duration.ofHours(23));
        Instant autumn = at("2026-10-25T12:00:00Z");
        assertThat(day.startOf(autumn)).isEqualTo(at("2026-10-24T22:00:00Z"));
        assertThat(Duration.between(day.startOf(autumn), day.endOf(autumn))).isEqualTo(Duration.ofHours(25));
    }

    @Test
    void theHourRepeatedWhenClocksGoBack_isTwoWindows_andTheSkippedHourNone() {
        Window hour = Window.HOUR.in(PARIS);

        // 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:00-03:00 local happens twice.
        Instant firstTwoOClock = at("2026-10-25T00:30:00Z");
        Instant secondTwoOClock = at("2026-10-25T01:30:00Z");
        assertThat(hour.startOf(firstTwoOClock)).isEqualTo(at("2026-10-25T00:00:00Z"));
        assertThat(hour.endOf(firstTwoOClock)).isEqualTo(at("2026-10-25T01:00:00Z"));
        assertThat(hour.startOf(secondTwoOClock)).isEqualTo(at("2026-10-25T01:00:00Z"));
        assertThat(hour.endOf(secondTwoOClock)).isEqualTo(at("2026-10-25T02:00:00Z"));
        // 2026-03-29: 02:00 CET becomes 03:00 CEST; the window after 01:00 local is 03:00 local.
        assertThat(hour.endOf(at("2026-03-29T00:30:00Z"))).isEqualTo(at("2026-03-29T01:00:00Z"));
        assertThat(hour.startOf(at("2026-03-29T01:00:00Z"))).isEqualTo(at("2026-03-29T01:00:00Z"));
    }

    @Test
    void aWeekOfAZone_startsOnMondayAtLocalMidnight() {
        Window week = Window.WEEK.in(PARIS);

        assertThat(week.startOf(at("2026-11-29T22:59:59Z"))).as("Sunday 23:59:59 in Paris")
                .isEqualTo(at("2026-11-22T23:00:00Z"));
        assertThat(week.startOf(at("2026-11-29T23:00:00Z"))).as("Monday 00:00 in Paris")
                .isEqualTo(at("2026-11-29T23:00:00Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"minute", "hour", "day", "week", "month", "month+15", "month+31@Europe/Paris",
            "day@America/New_York", "90s", "15m", "2h", "7d", "1s", "366d", "hour@+05:30"})
    void parse_readsWhatToStringWrites(String spec) {
        Window window = Window.parse(spec);

        assertThat(window).hasToString(spec);
        assertThat(Window.parse(window.toString())).isEqualTo(window);
    }

    @Test
    void parse_writesDurationsInTheirLargestWholeUnit() {
        assertThat(Window.parse("120s")).hasToString("2m").isEqualTo(Window.parse("2m"));
        assertThat(Window.parse("24h")).hasToString("1d");
        assertThat(Window.parse("MONTH")).isEqualTo(Window.MONTH);
    }

    @Test
    void badWindows_areRefusedSayingWhatAWindowIs() {
        assertThatThrownBy(() -> Window.parse("fortnight")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a window is minute, hour, day, week, month").hasMessageContaining("'fortnight'");
        assertThatThrownBy(() -> Window.parse("0s")).hasMessageContaining("from 1 second to 366 days, but was PT0S");
        assertThatThrownBy(() -> Window.parse("367d")).hasMessageContaining("from 1 second to 366 days");
        assertThatThrownBy(() -> Window.parse("month+32")).hasMessageContaining("day from 1 to 31, but was 32");
        assertThatThrownBy(() -> Window.parse("month+0")).hasMessageContaining("day from 1 to 31, but was 0");
        assertThatThrownBy(() -> Window.parse("day@Mars/Olympus")).hasMessageContaining("unknown time zone 'Mars/Olympus'");
        assertThatThrownBy(() -> Window.parse("90s@Europe/Paris")).hasMessageContaining("takes no zone");
        assertThatThrownBy(() -> Window.HOUR.startingOnDay(3)).hasMessageContaining("only a month window");
        assertThatThrownBy(() -> Window.every(Duration.ofMillis(1500))).hasMessageContaining("whole seconds");
    }

    @Test
    void longest_coversEveryWindowOfTheKind() {
        assertThat(Window.MONTH.longest()).isGreaterThanOrEqualTo(Duration.ofDays(31));
        assertThat(Window.DAY.in(PARIS).longest()).isEqualTo(Duration.ofHours(25));
        assertThat(Window.parse("90s").longest()).isEqualTo(Duration.ofSeconds(90));
    }
}
