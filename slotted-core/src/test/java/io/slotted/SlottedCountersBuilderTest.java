package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Builder settings are checked when given; no database is needed to see that. Building starts the
 * flushers of the queued modes, so every instance built here is closed.
 */
class SlottedCountersBuilderTest {
    private final DataSource nowhere = new DriverManagerDataSource("jdbc:h2:tcp://127.0.0.1:1/none");
    private final List<SlottedCounters> built = new ArrayList<>();

    @AfterEach
    void closeWhatWasBuilt() {
        built.forEach(SlottedCounters::close);
    }

    private SlottedConfig configOf(SlottedCountersBuilder builder) {
        SlottedCounters counters = builder.build();
        built.add(counters);
        return counters.config();
    }

    @Test
    void defaults_areTheDocumentedOnes() {
        SlottedConfig config = configOf(SlottedCounters.builder(nowhere));

        assertThat(config.table()).isEqualTo("slotted_counters");
        assertThat(config.writeMode()).isEqualTo(WriteMode.GROUPED);
        assertThat(config.slots(1)).isEqualTo(WriteMode.GROUPED.defaultSlots()).isEqualTo(16);
        assertThat(config.flushers()).isEqualTo(2);
        assertThat(config.queueCapacity()).isEqualTo(100_000);
        assertThat(config.maxAttempts()).isEqualTo(5);
        assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(10));
        assertThat(config.queueFullWait()).isEqualTo(Duration.ofSeconds(1));
        assertThat(config.flushInterval()).isEqualTo(Duration.ofMillis(200));
        assertThat(config.outcomeResolutionTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(config.idempotencyRetention()).isEqualTo(Duration.ofHours(24));
        assertThat(config.readsIncludeUnwritten()).isFalse();
    }

    @Test
    void readsIncludeUnwritten_outsideBufferedMode_isRefusedSayingWhy() {
        assertThatThrownBy(() -> SlottedCounters.builder(nowhere).readsIncludeUnwritten(true).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("readsIncludeUnwritten applies to BUFFERED mode only: in GROUPED mode an"
                        + " increment is written before add returns");
        assertThat(configOf(SlottedCounters.builder(nowhere).writeMode(WriteMode.BUFFERED)
                .readsIncludeUnwritten(true)).readsIncludeUnwritten()).isTrue();
    }

    @Test
    void directMode_defaultsTo100Slots() {
        SlottedConfig config = configOf(SlottedCounters.builder(nowhere).writeMode(WriteMode.DIRECT));

        assertThat(config.slots(1)).isEqualTo(100);
    }

    @Test
    void slotsForOneType_overrideTheDefaultForThatTypeOnly() {
        SlottedConfig config = configOf(SlottedCounters.builder(nowhere).slots(8).slots(3, 2));

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
        assertThat(configOf(SlottedCounters.builder(nowhere).table("app.counters")).table())
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

    /** Every validated setting with a value just outside its range, and the message it gets. */
    static Stream<Arguments> valuesOutOfRange() {
        return Stream.of(
                outOfRange("slots for a type", b -> b.slots(7, 1025),
                        "slots must be between 1 and 1024, but was 1025"),
                outOfRange("maxAttempts", b -> b.maxAttempts(101),
                        "maxAttempts must be between 1 and 100, but was 101"),
                outOfRange("retryBackoff", b -> b.retryBackoff(Duration.ofSeconds(11)),
                        "retryBackoff must be between 0ms and 10000ms, but was 11000ms"),
                outOfRange("flushers", b -> b.flushers(0),
                        "flushers must be between 1 and 64, but was 0"),
                outOfRange("flushers", b -> b.flushers(65),
                        "flushers must be between 1 and 64, but was 65"),
                outOfRange("queueCapacity", b -> b.queueCapacity(0),
                        "queueCapacity must be between 1 and 10000000, but was 0"),
                outOfRange("queueFullWait", b -> b.queueFullWait(Duration.ofMillis(-1)),
                        "queueFullWait must be between 0ms and 3600000ms, but was -1ms"),
                outOfRange("flushInterval", b -> b.flushInterval(Duration.ZERO),
                        "flushInterval must be between 1ms and 3600000ms, but was 0ms"),
                outOfRange("outcomeResolutionTimeout",
                        b -> b.outcomeResolutionTimeout(Duration.ofHours(2)),
                        "outcomeResolutionTimeout must be between 0ms and 3600000ms, but was 7200000ms"),
                outOfRange("idempotencyRetention", b -> b.idempotencyRetention(Duration.ofSeconds(59)),
                        "idempotencyRetention must be between 60000ms and 31536000000ms, but was 59000ms"));
    }

    private static Arguments outOfRange(String setting, Consumer<SlottedCountersBuilder> set,
            String message) {
        return Arguments.of(setting, set, message);
    }

    private static Arguments setting(String name, Consumer<SlottedCountersBuilder> set) {
        return Arguments.of(name, set);
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("valuesOutOfRange")
    void everyValidatedSetting_outOfRange_isRejectedNamingTheRuleAndValue(String setting,
            Consumer<SlottedCountersBuilder> set, String message) {
        assertThatThrownBy(() -> set.accept(SlottedCounters.builder(nowhere)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    /** Every setting that takes an object, set to null. */
    static Stream<Arguments> nullSettings() {
        return Stream.of(
                setting("writeMode", b -> b.writeMode(null)),
                setting("retryBackoff", b -> b.retryBackoff(null)),
                setting("queueFullWait", b -> b.queueFullWait(null)),
                setting("flushInterval", b -> b.flushInterval(null)),
                setting("outcomeResolutionTimeout", b -> b.outcomeResolutionTimeout(null)),
                setting("idempotencyRetention", b -> b.idempotencyRetention(null)),
                setting("clock", b -> b.clock(null)),
                setting("ticker", b -> b.ticker(null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nullSettings")
    void everySetting_givenNull_isRejectedNamingIt(String setting, Consumer<SlottedCountersBuilder> set) {
        assertThatThrownBy(() -> set.accept(SlottedCounters.builder(nowhere)))
                .isInstanceOf(NullPointerException.class)
                .hasMessage(setting + " must not be null");
    }

    /** Every setting, given once with a valid value. */
    static Stream<Arguments> everySetting() {
        return Stream.of(
                setting("table", b -> b.table("counters")),
                setting("writeMode", b -> b.writeMode(WriteMode.DIRECT)),
                setting("slots", b -> b.slots(8)),
                setting("slots for type 3", b -> b.slots(3, 8)),
                setting("maxAttempts", b -> b.maxAttempts(3)),
                setting("retryBackoff", b -> b.retryBackoff(Duration.ofMillis(1))),
                setting("flushers", b -> b.flushers(3)),
                setting("queueCapacity", b -> b.queueCapacity(10)),
                setting("queueFullWait", b -> b.queueFullWait(Duration.ZERO)),
                setting("flushInterval", b -> b.flushInterval(Duration.ofMillis(5))),
                setting("outcomeResolutionTimeout", b -> b.outcomeResolutionTimeout(Duration.ZERO)),
                setting("idempotencyRetention", b -> b.idempotencyRetention(Duration.ofHours(1))),
                setting("clock", b -> b.clock(Clock.systemUTC())),
                setting("ticker", b -> b.ticker(System::nanoTime)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everySetting")
    void everySetting_givenTwice_isAnError(String setting, Consumer<SlottedCountersBuilder> set) {
        SlottedCountersBuilder builder = SlottedCounters.builder(nowhere);
        set.accept(builder);

        assertThatThrownBy(() -> set.accept(builder))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(setting + " was already set");
    }

    @Test
    void everySetting_givenOnce_isWhatTheConfigHolds() {
        ManualTicker ticker = new ManualTicker();
        Clock clock = Clock.systemUTC();
        SlottedConfig config = configOf(SlottedCounters.builder(nowhere).table("counters")
                .writeMode(WriteMode.BUFFERED).slots(8).slots(3, 2).maxAttempts(3)
                .retryBackoff(Duration.ofMillis(1)).flushers(3).queueCapacity(10)
                .queueFullWait(Duration.ZERO).flushInterval(Duration.ofMillis(5))
                .outcomeResolutionTimeout(Duration.ofSeconds(2)).idempotencyRetention(Duration.ofHours(1))
                .clock(clock).ticker(ticker));

        assertThat(config.table()).isEqualTo("counters");
        assertThat(config.writeMode()).isEqualTo(WriteMode.BUFFERED);
        assertThat(config.slots(1)).isEqualTo(8);
        assertThat(config.slots(3)).isEqualTo(2);
        assertThat(config.maxAttempts()).isEqualTo(3);
        assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(1));
        assertThat(config.flushers()).isEqualTo(3);
        assertThat(config.queueCapacity()).isEqualTo(10);
        assertThat(config.queueFullWait()).isZero();
        assertThat(config.flushInterval()).isEqualTo(Duration.ofMillis(5));
        assertThat(config.outcomeResolutionTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(config.idempotencyRetention()).isEqualTo(Duration.ofHours(1));
        assertThat(config.clock()).isSameAs(clock);
        assertThat(config.ticker()).isSameAs(ticker);
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
