package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Builder settings are checked when given; no database is needed to see that. */
class SlottedCountersBuilderTest {
    private final DataSource nowhere = new DriverManagerDataSource("jdbc:h2:tcp://127.0.0.1:1/none");

    @Test
    void defaults_areTheDocumentedOnes() {
        SlottedConfig config = SlottedCounters.builder(nowhere).build().config();

        assertThat(config.table()).isEqualTo("slotted_counters");
        assertThat(config.writeMode()).isEqualTo(WriteMode.GROUPED);
        assertThat(config.slots(1)).isEqualTo(WriteMode.GROUPED.defaultSlots()).isEqualTo(16);
        assertThat(config.flushers()).isEqualTo(2);
        assertThat(config.queueCapacity()).isEqualTo(100_000);
        assertThat(config.maxAttempts()).isEqualTo(5);
        assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void directMode_defaultsTo100Slots() {
        SlottedConfig config = SlottedCounters.builder(nowhere).writeMode(WriteMode.DIRECT).build().config();

        assertThat(config.slots(1)).isEqualTo(100);
    }

    @Test
    void slotsForOneType_overrideTheDefaultForThatTypeOnly() {
        SlottedConfig config = SlottedCounters.builder(nowhere).slots(8).slots(3, 2).build().config();

        assertThat(config.slots(3)).isEqualTo(2);
        assertThat(config.slots(4)).isEqualTo(8);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1025})
    void slots_outOfRange_areRejectedNamingTheRuleAndValue(int slots) {
        assertThatThrownBy(() -> SlottedCounters.builder(nowhere).slots(slots))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("slots must be between 1 and 1024, but was " + slots);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1table", "counters; DROP TABLE users", "a.b.c", "`quoted`", "with space"})
    void table_thatIsNotAPlainIdentifier_isRejected(String table) {
        assertThatThrownBy(() -> SlottedCounters.builder(nowhere).table(table))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("table must be an identifier")
                .hasMessageContaining("'" + table + "'");
    }

    @Test
    void table_qualifiedBySchema_isAccepted() {
        assertThat(SlottedCounters.builder(nowhere).table("app.counters").build().config().table())
                .isEqualTo("app.counters");
    }

    @Test
    void maxAttempts_outOfRange_isRejected() {
        assertThatThrownBy(() -> SlottedCounters.builder(nowhere).maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxAttempts must be between 1 and 100, but was 0");
    }

    @Test
    void retryBackoff_negative_isRejected() {
        assertThatThrownBy(() -> SlottedCounters.builder(nowhere).retryBackoff(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("retryBackoff must be between 0ms and 10000ms, but was -1ms");
    }

    @Test
    void aSettingGivenTwice_isAnError() {
        SlottedCountersBuilder builder = SlottedCounters.builder(nowhere).slots(4);

        assertThatThrownBy(() -> builder.slots(8))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("slots was already set");
    }

    @Test
    void nullDataSource_isRejected() {
        assertThatThrownBy(() -> SlottedCounters.builder(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("dataSource");
    }
}
