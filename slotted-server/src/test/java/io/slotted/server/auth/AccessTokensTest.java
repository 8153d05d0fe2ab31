package io.slotted.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Token files, scopes, and the decisions of the access check. */
class AccessTokensTest {
    private static Path file(String name, String text) throws Exception {
        return Files.writeString(Files.createDirectories(Path.of("target", "tokens")).resolve(name), text);
    }

    @Test
    void tokenFile_withCommentsAndBlankLines_givesEachTokenItsScopes() throws Exception {
        AccessTokens tokens = AccessTokens.read(file("ok.txt", "# service tokens\n\n"
                + "  alpha read   # dashboards\n"
                + "beta\twrite,read\n"
                + "ga#mma admin\n"));

        assertThat(tokens.size()).isEqualTo(3);
        assertThat(tokens.scopesOf("alpha")).hasValue(Set.of(Scope.READ));
        assertThat(tokens.scopesOf("beta")).hasValue(Set.of(Scope.WRITE, Scope.READ));
        assertThat(tokens.scopesOf("ga#mma")).hasValue(Set.of(Scope.ADMIN));
        assertThat(tokens.scopesOf("alph")).isEmpty();
        assertThat(tokens.scopesOf("")).isEmpty();
    }

    @Test
    void tokenFile_startingWithAByteOrderMark_stillMatchesItsFirstToken() throws Exception {
        AccessTokens tokens = AccessTokens.read(file("bom.txt", "\uFEFFalpha read\nbeta write\n"));

        assertThat(tokens.scopesOf("alpha")).hasValue(Set.of(Scope.READ));
        assertThat(tokens.scopesOf("beta")).hasValue(Set.of(Scope.WRITE));
    }

    @Test
    void scopes_nest_writeImpliesRead_adminImpliesBoth() {
        assertThat(Scope.WRITE.covers(Scope.READ)).isTrue();
        assertThat(Scope.ADMIN.covers(Scope.WRITE)).isTrue();
        assertThat(Scope.READ.covers(Scope.WRITE)).isFalse();
        assertThat(Scope.WRITE.covers(Scope.ADMIN)).isFalse();
    }

    @Test
    void malformedTokenFile_isAUsageError_thatNamesTheLine_butNeverTheToken() throws Exception {
        assertThatThrownBy(() -> AccessTokens.read(file("bad-scope.txt", "# x\nsecret-token-1 read,fly\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2").hasMessageContaining("fly")
                .hasMessageNotContaining("secret-token-1");
        assertThatThrownBy(() -> AccessTokens.read(file("no-scope.txt", "secret-token-2\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageNotContaining("secret-token-2");
        assertThatThrownBy(() -> AccessTokens.read(file("twice.txt", "secret-3 read\nsecret-3 write\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2")
                .hasMessageNotContaining("secret-3");
        assertThatThrownBy(() -> AccessTokens.read(file("empty.txt", "# nothing\n\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds no token");
    }

    @Test
    void check_decidesFromTheTokenAndTheScope() throws Exception {
        AccessTokens tokens = AccessTokens.read(file("check.txt", "reader read\nwriter write\n"));

        assertThat(tokens.check("writer", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("reader", Scope.WRITE)).isEqualTo(AccessDecision.LACKS_SCOPE);
        assertThat(tokens.check("stranger", Scope.READ)).isEqualTo(AccessDecision.UNKNOWN_TOKEN);
        assertThat(tokens.check(null, Scope.READ)).isEqualTo(AccessDecision.NO_TOKEN);
        assertThat(tokens.check(" ", Scope.READ)).isEqualTo(AccessDecision.NO_TOKEN);
    }

    @Test
    void openAccess_grantsEverything_evenWithoutAToken() {
        assertThat(AccessCheck.open().check(null, Scope.ADMIN)).isEqualTo(AccessDecision.GRANTED);
    }
}
