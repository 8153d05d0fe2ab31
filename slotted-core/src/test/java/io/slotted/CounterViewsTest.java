package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The views reached from {@link SlottedCounters} check their arguments before they touch the
 * database, and refuse once the counters are closed; a database nobody listens on shows that
 * nothing was tried.
 */
class CounterViewsTest {
    private static final Instant NOON = Instant.parse("2026-11-26T12:00:00Z");
    private final DataSource nowhere = new DriverManagerDataSource("jdbc:h2:tcp://127.0.0.1:1/none");
    private final SlottedCounters counters = SlottedCounters.builder(nowhere).writeMode(WriteMode.DIRECT)
            .buckets(7, BucketUnit.HOUR, Duration.ofDays(1)).build();

    @AfterEach
    void close() {
        counters.close();
    }

    @Test
    void views_areTheSameEachTime() {
        assertThat(counters.owners()).isSameAs(counters.owners());
        assertThat(counters.admin()).isSameAs(counters.admin());
        assertThat(counters.timeSeries()).isSameAs(counters.timeSeries());
    }

    @Test
    void badArguments_areRefusedBeforeTheDatabaseIsAsked() {
        int reserved = SlottedCounters.RESERVED_RECORD_TYPE;
        OwnerColumn column = new OwnerColumn("repositories", "id", "downloads");

        assertThatThrownBy(() -> counters.owners().adopt(reserved, column, OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> counters.owners().release(reserved))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
        assertThatThrownBy(() -> counters.admin().shrink(1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("slots must be between 1 and");
        assertThatThrownBy(() -> counters.admin().recount(1, " ", false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was blank");
        assertThatThrownBy(() -> counters.timeSeries().series(1, 1L, NOON, NOON.plusSeconds(60)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keeps no time buckets");
        assertThatThrownBy(() -> counters.timeSeries().top(7, NOON, NOON.plusSeconds(60), 1001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n must be between 1 and 1000");
    }

    @Test
    void views_afterClose_refuse() {
        counters.close();

        assertThatThrownBy(() -> counters.owners().rollUpNow())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> counters.admin().set(1, 1L, 5))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> counters.admin().shrink(1, 2))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> counters.timeSeries().series(7, 1L, NOON, NOON.plusSeconds(60)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void counterArguments_applyTheRulesOfTheCalls() {
        assertThat(CounterArguments.checkIdempotencyKey("order-42")).isEqualTo("order-42");
        assertThatThrownBy(() -> CounterArguments.checkIdempotencyKey("é"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not printable ASCII");
        assertThatThrownBy(() -> CounterArguments.checkDelta(1, 1L, SlottedCounters.MAX_DELTA + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("several increments");
        assertThatThrownBy(() -> CounterArguments.checkRecordType(SlottedCounters.RESERVED_RECORD_TYPE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
    }
}
