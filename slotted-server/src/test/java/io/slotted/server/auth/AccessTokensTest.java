package io.slotted.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Token files of plain and hashed lines, names, scopes, and the decisions of the access check. */
class AccessTokensTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    /** A token's digest as a hashed line writes it, worked out here apart from the code under test. */
    static String sha256(String token) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(token.getBytes(StandardCharsets.UTF_8)));
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
    void scopes_namedInAList_areReadOnce_andAnUnknownOrEmptyNameIsRefused() {
        assertThat(Scope.namedIn("write,read,write")).isEqualTo(Set.of(Scope.READ, Scope.WRITE));
        assertThatThrownBy(() -> Scope.namedIn("read,fly")).hasMessageContaining("unknown scope 'fly'");
        assertThatThrownBy(() -> Scope.namedIn("read,")).hasMessageContaining("unknown scope ''");
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
    void read_hashedLine_acceptsTheTokenItHashes() throws Exception {
        AccessTokens tokens = AccessTokens.read(file("hashed.txt", "ci " + sha256("s3cret-ci") + " write\n"));

        assertThat(tokens.check("s3cret-ci", Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("s3cret-ci", Scope.ADMIN)).isEqualTo(AccessDecision.LACKS_SCOPE);
        assertThat(tokens.scopesOf("s3cret-ci")).hasValue(Set.of(Scope.WRITE));
        assertThat(tokens.nameOf("s3cret-ci")).hasValue("ci");
        assertThat(tokens.plainTokenLines()).isEmpty();
    }

    @Test
    void read_hashedLine_refusesItsNameAndItsHashPresentedAsTokens() throws Exception {
        String hash = sha256("s3cret-ci");
        AccessTokens tokens = AccessTokens.read(file("hashed.txt", "ci " + hash + " admin\n"));

        for (String notTheToken : List.of("ci", hash, hash.substring("sha256:".length()), "s3cret-c")) {
            assertThat(tokens.check(notTheToken, Scope.READ)).as(notTheToken)
                    .isEqualTo(AccessDecision.UNKNOWN_TOKEN);
            assertThat(tokens.nameOf(notTheToken)).as(notTheToken).isEmpty();
        }
    }

    @Test
    void read_mixedFile_namesEveryEntryInFileOrder_andReportsThePlainLines() throws Exception {
        AccessTokens tokens = AccessTokens.read(file("mixed.txt", "# tokens\n"
                + "dashboard-token read   # plain, line 2\n"
                + "deploy.bot_1 " + sha256("deploy-token") + " read,write   # hashed\n"
                + "\n"
                + "ops-token admin\n"
                + "Z " + sha256("z-token") + " admin\n"));

        assertThat(tokens.size()).isEqualTo(4);
        assertThat(tokens.names()).containsExactly("line 2", "deploy.bot_1", "line 5", "Z");
        assertThat(tokens.plainTokenLines()).containsExactly(2, 5);
        assertThat(tokens.nameOf("dashboard-token")).hasValue("line 2");
        assertThat(tokens.nameOf("deploy-token")).hasValue("deploy.bot_1");
        assertThat(tokens.nameOf("ops-token")).hasValue("line 5");
        assertThat(tokens.nameOf("z-token")).hasValue("Z");
        assertThat(tokens.scopesOf("deploy-token")).hasValue(Set.of(Scope.READ, Scope.WRITE));
        assertThat(tokens.check("ops-token", Scope.ADMIN)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("dashboard-token", Scope.WRITE)).isEqualTo(AccessDecision.LACKS_SCOPE);
    }

    @Test
    void read_nameOfTheLongestLength_isAccepted() throws Exception {
        String name = "a" + "-".repeat(63);

        AccessTokens tokens = AccessTokens.read(file("long.txt", name + " " + sha256("t") + " read\n"));

        assertThat(tokens.names()).containsExactly(name);
    }

    /** Each malformed file, the line its message must name, and words that say what to fix. */
    static Stream<Arguments> malformedFiles() throws Exception {
        String hash = sha256("secret-token");
        String other = sha256("secret-other");
        return Stream.of(
                Arguments.of("ci " + hash + " read\nci " + other + " write\n", 2,
                        List.of("repeats the name 'ci' of line 1", "a name of its own")),
                Arguments.of("ci " + hash + " read\nbot " + hash + " write\n", 2,
                        List.of("same token as line 1, named ci", "keep one")),
                Arguments.of("ci " + hash + " read\nsecret-token write\n", 2,
                        List.of("same token as line 1, named ci", "keep one")),
                Arguments.of("# plain first\nsecret-token write\nci " + hash + " read\n", 3,
                        List.of("same token as line 2:", "keep one")),
                Arguments.of("ci " + hash + "\n", 1, List.of("a hashed line needs scopes")),
                Arguments.of(hash + " read\n", 1, List.of("a hashed line needs a name")),
                Arguments.of("ci " + hash.toUpperCase().replace("SHA256", "sha256") + " read\n", 1,
                        List.of("64 lowercase hex digits")),
                Arguments.of("ci " + hash.substring(0, 70) + " read\n", 1, List.of("64 lowercase hex digits")),
                Arguments.of("ci sha512:" + hash.substring(7) + " read\n", 1, List.of("must be '<token>")),
                Arguments.of("-ci " + hash + " read\n", 1, List.of("[A-Za-z0-9][A-Za-z0-9._-]{0,63}", "'-ci'")),
                Arguments.of("c/i " + hash + " read\n", 1, List.of("but was 'c/i'")),
                Arguments.of("a" + "b".repeat(64) + " " + hash + " read\n", 1, List.of("up to 63")),
                Arguments.of("# x\nci " + hash + " read,fly\n", 2, List.of("unknown scope 'fly'")),
                Arguments.of("ci " + hash + " read,\n", 1, List.of("unknown scope ''")),
                Arguments.of("secret-token read write\n", 1, List.of("no spaces inside a field")),
                Arguments.of("secret-token read write admin\n", 1, List.of("must be '<token>")),
                Arguments.of("secret-token\n", 1, List.of("must be '<token>")));
    }

    @ParameterizedTest
    @MethodSource("malformedFiles")
    void read_malformedFile_isRefused_namingTheLineAndTheFix_butNeverTheToken(String text, int line,
            List<String> fix) throws Exception {
        Path file = file("malformed.txt", text);

        assertThatThrownBy(() -> AccessTokens.read(file))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(file + " line " + line)
                .hasMessageContainingAll(fix.toArray(String[]::new))
                .hasMessageNotContaining("secret");
    }

    @Test
    void read_missingFile_isRefused_sayingSo() {
        assertThatThrownBy(() -> AccessTokens.read(dir.resolve("nowhere.txt")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
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
