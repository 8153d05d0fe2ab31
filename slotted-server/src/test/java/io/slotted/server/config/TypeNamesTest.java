package io.slotted.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Type names: parsing them, and reading a type as a request gives it. */
class TypeNamesTest {
    private final TypeNames names = TypeNames.parse("downloads=1, views=0002");

    @Test
    void resolve_aNameOrANumber_givesTheRecordType_andRemembersWhichWasUsed() {
        assertThat(names.resolve("downloads")).isEqualTo(new CounterType(1, "downloads"));
        assertThat(names.resolve("views").recordType()).isEqualTo(2);
        assertThat(names.resolve("7")).isEqualTo(new CounterType(7, null));
        assertThat(names.resolve("2147483647").echo()).isEqualTo(Integer.MAX_VALUE);
        assertThat(names.resolve("downloads").echo()).isEqualTo("downloads");
    }

    @Test
    void resolve_aWellFormedNameNotConfigured_isAnUnknownType_listingTheNames() {
        assertThatThrownBy(() -> names.resolve("downlods"))
                .isInstanceOf(UnknownTypeException.class)
                .hasMessageContaining("downlods").hasMessageContaining("downloads, views");
        assertThatThrownBy(() -> TypeNames.none().resolve("downloads"))
                .isInstanceOf(UnknownTypeException.class)
                .hasMessageContaining("no type names are configured");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Down-loads", "2147483648", "-1", "", "_x"})
    void resolve_aMalformedType_isAnIllegalArgument_butNotAnUnknownType(String text) {
        assertThatThrownBy(() -> names.resolve(text))
                .isInstanceOf(IllegalArgumentException.class)
                .isNotInstanceOf(UnknownTypeException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"downloads", "downloads=x", "Downloads=1", "a=1,a=2", "a=2147483648", "a=1,"})
    void parse_aMalformedSpec_isRefused_quotingTheBadPart(String spec) {
        assertThatThrownBy(() -> TypeNames.parse(spec))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("types");
    }

    @Test
    void parse_blank_isNoNames() {
        assertThat(TypeNames.parse(" ").asMap()).isEmpty();
        assertThat(TypeNames.parse(null).asMap()).isEmpty();
        assertThat(names.asMap()).containsExactly(entry("downloads", 1), entry("views", 2));
    }
}
