package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Limits as values: written and read back, and what they allow. */
class LimitsTest {
    @Test
    void writtenAsMinDotDotMax_eitherEndLeftOut_andReadBack() {
        assertThat(Limits.atLeast(0)).hasToString("0..");
        assertThat(Limits.atMost(1000)).hasToString("..1000");
        assertThat(Limits.between(-5, 5)).hasToString("-5..5");
        for (Limits limits : new Limits[] {Limits.atLeast(0), Limits.atMost(1000), Limits.between(-5, 5)}) {
            assertThat(Limits.parse(limits.toString())).isEqualTo(limits);
        }
        assertThat(Limits.NONE.bounded()).isFalse();
        assertThat(Limits.atLeast(Long.MIN_VALUE).bounded()).isFalse();
    }

    @Test
    void limitsPerWindow_countFromZero_andAreWrittenWithTheirWindow() {
        Limits quota = Limits.atMost(10_000).per(Window.MONTH);

        assertThat(quota).isEqualTo(new Limits(0, 10_000, Window.MONTH)).hasToString("0..10000/month");
        assertThat(quota.windowed()).isTrue();
        assertThat(Limits.atMost(10_000).windowed()).isFalse();
        assertThat(Limits.parse("..10000/month")).isEqualTo(quota);
        assertThat(Limits.parse("1..5/hour@Europe/Paris"))
                .isEqualTo(Limits.between(1, 5).per(Window.HOUR.in(java.time.ZoneId.of("Europe/Paris"))));
        assertThat(Limits.parse(quota.toString())).isEqualTo(quota);
        assertThat(Limits.parse("..1000/90s").window()).isEqualTo(Window.every(java.time.Duration.ofSeconds(90)));
    }

    @Test
    void badLimitsPerWindow_sayWhatToFix() {
        assertThatThrownBy(() -> Limits.between(-1, 5).per(Window.DAY)).hasMessageContaining("a window counts from 0");
        assertThatThrownBy(() -> Limits.atMost(-5).per(Window.DAY)).hasMessageContaining("lower bound 0 is above the upper bound -5");
        assertThatThrownBy(() -> Limits.atMost(5).per(Window.DAY).per(Window.HOUR)).hasMessageContaining("already per window");
        assertThatThrownBy(() -> Limits.parse("..5/fortnight")).hasMessageContaining("a window is minute, hour");
        assertThatThrownBy(() -> Limits.parse("/hour")).hasMessageContaining("MIN..MAX");
    }

    @Test
    void allowAdding_keepsTheTotalWithin_andNeverOverflows() {
        Limits stock = Limits.atLeast(0);
        assertThat(stock.allowAdding(3, -3)).isTrue();
        assertThat(stock.allowAdding(3, -4)).isFalse();
        assertThat(Limits.atMost(10).allowAdding(9, 1)).isTrue();
        assertThat(Limits.atMost(10).allowAdding(9, 2)).isFalse();
        assertThat(stock.allowAdding(Long.MAX_VALUE, 1)).as("past 64 bits").isFalse();
        assertThat(Limits.atMost(0).allowAdding(Long.MIN_VALUE, -1)).as("past 64 bits").isFalse();
    }

    @Test
    void badLimits_sayWhatToFix() {
        assertThatThrownBy(() -> Limits.between(3, 2)).hasMessage("the lower bound 3 is above the upper bound 2");
        assertThatThrownBy(() -> Limits.parse("..")).hasMessageContaining("at least one end");
        assertThatThrownBy(() -> Limits.parse("5")).hasMessageContaining("MIN..MAX");
        assertThatThrownBy(() -> Limits.parse("1..x")).hasMessageContaining("whole numbers");
        assertThatThrownBy(() -> SlottedCounters.builder(TestConfigs.nowhere()).limits(1, Limits.NONE))
                .hasMessageContaining("bound nothing");
        assertThatThrownBy(() -> TestConfigs.of(b -> b.writeMode(WriteMode.BUFFERED).limits(1, Limits.atLeast(0))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("BUFFERED");
    }
}
