package io.slotted.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.Limits;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code --limits} option's specs. */
class TypeLimitsTest {
    private final TypeNames names = TypeNames.parse("stock=7, quota=8");

    @Test
    void specs_byNameOrNumber_eitherEndLeftOut_repeatedOrCommaSeparated() {
        assertThat(TypeLimits.parse(List.of("stock=0..", "quota=..1000,9=-5..120"), names)).isEqualTo(
                Map.of(7, Limits.atLeast(0), 8, Limits.atMost(1000), 9, Limits.between(-5, 120)));
        assertThat(TypeLimits.parse(List.of(), names)).isEmpty();
    }

    @Test
    void badSpecs_sayWhatToFix() {
        assertThatThrownBy(() -> TypeLimits.parse(List.of("stock"), names))
                .hasMessage("limits must be TYPE=MIN..MAX, either end left out for none, such as stock=0.. or"
                        + " quota=..1000, but had 'stock'");
        assertThatThrownBy(() -> TypeLimits.parse(List.of("stock=.."), names))
                .hasMessageStartingWith("limits of type stock: limits must be MIN..MAX with at least one end");
        assertThatThrownBy(() -> TypeLimits.parse(List.of("stock=5..3"), names))
                .hasMessage("limits of type stock: the lower bound 5 is above the upper bound 3");
        assertThatThrownBy(() -> TypeLimits.parse(List.of("stock=few..many"), names))
                .hasMessageContaining("whole numbers");
        assertThatThrownBy(() -> TypeLimits.parse(List.of("stock=0..", "7=..9"), names))
                .hasMessage("limits give type 7 twice");
        assertThatThrownBy(() -> TypeLimits.parse(List.of("seats=0.."), names))
                .isInstanceOf(UnknownTypeException.class);
    }
}
