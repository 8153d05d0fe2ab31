package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.db.H2TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Token files, scopes, and the rule that only loopback may go without tokens. */
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
    void scopes_nest_writeImpliesRead_adminImpliesBoth() {
        assertThat(Scope.WRITE.covers(Scope.READ)).isTrue();
        assertThat(Scope.ADMIN.covers(Scope.WRITE)).isTrue();
        assertThat(Scope.READ.covers(Scope.WRITE)).isFalse();
        assertThat(Scope.WRITE.covers(Scope.ADMIN)).isFalse();
    }

    @Test
    void malformedTokenFile_isAUsageError_thatNamesTheLine_butNeverTheToken() throws Exception {
        assertThatThrownBy(() -> AccessTokens.read(file("bad-scope.txt", "# x\nsecret-token-1 read,fly\n")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("line 2").hasMessageContaining("fly")
                .hasMessageNotContaining("secret-token-1");
        assertThatThrownBy(() -> AccessTokens.read(file("no-scope.txt", "secret-token-2\n")))
                .isInstanceOf(UsageException.class).hasMessageNotContaining("secret-token-2");
        assertThatThrownBy(() -> AccessTokens.read(file("twice.txt", "secret-3 read\nsecret-3 write\n")))
                .isInstanceOf(UsageException.class).hasMessageContaining("line 2")
                .hasMessageNotContaining("secret-3");
        assertThatThrownBy(() -> AccessTokens.read(file("empty.txt", "# nothing\n\n")))
                .isInstanceOf(UsageException.class).hasMessageContaining("holds no token");
    }

    @Test
    void service_withoutTokens_refusesANonLoopbackAddress_butAcceptsLoopback() throws Exception {
        ServerSettings loopback = ServerSettings.defaults(new DatabaseSettings(H2TestDatabase.instance().jdbcUrl(), null, null));

        assertThatThrownBy(() -> new ServerSettings(0, "0.0.0.0", loopback.database(), null,
                loopback.types(), loopback.counters()))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("refusing to listen on 0.0.0.0 without --tokens");
        assertThat(loopback.loopbackOnly()).isTrue();
        assertThat(new ServerSettings(0, "0.0.0.0", loopback.database(),
                AccessTokens.read(file("one.txt", "t read\n")), loopback.types(), loopback.counters())
                .loopbackOnly()).isFalse();
    }
}
