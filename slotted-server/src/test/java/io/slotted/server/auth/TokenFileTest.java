package io.slotted.server.auth;

import static io.slotted.server.auth.AccessTokensTest.sha256;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Writing token files: new tokens appended as hashed lines, and plain files converted. */
class TokenFileTest {
    @TempDir
    Path dir;

    @Test
    void create_missingFile_makesItForItsOwnerOnly_withTheTokensHashedLine() throws Exception {
        Path file = dir.resolve("tokens");

        String token = TokenFile.create(file, "ci", Set.of(Scope.WRITE, Scope.READ));

        assertThat(token).matches("slt_[A-Za-z0-9_-]{43}");
        assertThat(Files.readString(file)).isEqualTo("ci " + sha256(token) + " read,write\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void create_scopesAreHonouredByTheTokensTheFileThenHolds() {
        Path file = dir.resolve("tokens");
        String reader = TokenFile.create(file, "reader", Set.of(Scope.READ));
        String writer = TokenFile.create(file, "writer", Set.of(Scope.WRITE));
        String admin = TokenFile.create(file, "admin", Set.of(Scope.ADMIN));

        AccessTokens tokens = AccessTokens.read(file);

        assertThat(tokens.names()).containsExactly("reader", "writer", "admin");
        assertThat(tokens.plainTokenLines()).isEmpty();
        assertThat(tokens.check(reader, Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check(reader, Scope.WRITE)).isEqualTo(AccessDecision.LACKS_SCOPE);
        assertThat(tokens.check(writer, Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check(writer, Scope.ADMIN)).isEqualTo(AccessDecision.LACKS_SCOPE);
        assertThat(tokens.check(admin, Scope.ADMIN)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.nameOf(writer)).hasValue("writer");
    }

    @Test
    void create_manyTokens_areAllDifferent() {
        Path file = dir.resolve("tokens");
        Set<String> made = new HashSet<>();

        for (int i = 0; i < 100; i++) {
            made.add(TokenFile.create(file, "t" + i, Set.of(Scope.READ)));
        }

        assertThat(made).hasSize(100);
        assertThat(AccessTokens.read(file).size()).isEqualTo(100);
    }

    @Test
    void create_existingFile_keepsItsLines_andEndsTheLastOneFirst() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# service tokens\nold-token read");

        String token = TokenFile.create(file, "new", Set.of(Scope.ADMIN));

        assertThat(Files.readAllLines(file)).containsExactly("# service tokens", "old-token read",
                "new " + sha256(token) + " admin");
        AccessTokens tokens = AccessTokens.read(file);
        assertThat(tokens.check("old-token", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check(token, Scope.ADMIN)).isEqualTo(AccessDecision.GRANTED);
    }

    @Test
    void create_existingFile_keepsItsPermissions() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "old-token read\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        TokenFile.create(file, "new", Set.of(Scope.READ));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
    }

    @Test
    void create_takenName_isRefused_namingIt_andLeavesTheFileUnchanged() throws Exception {
        Path file = dir.resolve("tokens");
        TokenFile.create(file, "ci", Set.of(Scope.READ));
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> TokenFile.create(file, "ci", Set.of(Scope.ADMIN)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the token name 'ci' is taken by line 1")
                .hasMessageContaining("names must be unique");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-ci", ".ci", "c i", "c/i", "ci:x", "line 2",
        "a12345678901234567890123456789012345678901234567890123456789012345"})
    void create_badName_isRefused_namingTheRuleAndTheValue_andWritesNothing(String name) {
        Path file = dir.resolve("tokens");

        assertThatThrownBy(() -> TokenFile.create(file, name, Set.of(Scope.READ)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")
                .hasMessageContaining("but was '" + name + "'");
        assertThat(file).doesNotExist();
    }

    @Test
    void create_withoutScopes_isRefused() {
        assertThatThrownBy(() -> TokenFile.create(dir.resolve("tokens"), "ci", Set.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one scope");
    }

    @Test
    void create_inAMalformedFile_isRefused_andLeavesItUnchanged() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# x\nsecret-token read,fly\n");

        assertThatThrownBy(() -> TokenFile.create(file, "ci", Set.of(Scope.READ)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2").hasMessageNotContaining("secret-token");
        assertThat(Files.readString(file)).isEqualTo("# x\nsecret-token read,fly\n");
    }

    @Test
    void create_inAFileThatCannotBeRead_isRefused() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("a-directory"));

        assertThatThrownBy(() -> TokenFile.create(directory, "ci", Set.of(Scope.READ)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read the token file");
    }

    @Test
    void create_whereNoFileCanBeWritten_failsAsAnIoFailure() {
        Path file = dir.resolve("no-such-directory").resolve("tokens");

        assertThatThrownBy(() -> TokenFile.create(file, "ci", Set.of(Scope.READ)))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot write the token file " + file);
    }

    @Test
    void hashPlainTokens_convertsEveryPlainLine_keepsTheRest_andTheTokensStillPass() throws Exception {
        String deploy = sha256("deploy-token");
        Path file = Files.writeString(dir.resolve("tokens"), "# service tokens\n"
                + "dashboard-token read   # dashboards\n"
                + "\n"
                + "deploy " + deploy + " write # made by slotted token create\n"
                + "ops-token write,admin\n");

        int converted = TokenFile.hashPlainTokens(file);

        assertThat(converted).isEqualTo(2);
        assertThat(Files.readAllLines(file)).containsExactly("# service tokens",
                "line-2 " + sha256("dashboard-token") + " read # dashboards",
                "",
                "deploy " + deploy + " write # made by slotted token create",
                "line-5 " + sha256("ops-token") + " write,admin");
        AccessTokens tokens = AccessTokens.read(file);
        assertThat(tokens.plainTokenLines()).isEmpty();
        assertThat(tokens.names()).containsExactly("line-2", "deploy", "line-5");
        assertThat(tokens.check("dashboard-token", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("dashboard-token", Scope.WRITE)).isEqualTo(AccessDecision.LACKS_SCOPE);
        assertThat(tokens.check("deploy-token", Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("ops-token", Scope.ADMIN)).isEqualTo(AccessDecision.GRANTED);
        assertThat(Files.readString(file)).doesNotContain("dashboard-token", "ops-token");
    }

    @Test
    void hashPlainTokens_keepsTheFilesPermissions_andLeavesNoTemporaryFile() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "plain-token read\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));

        TokenFile.hashPlainTokens(file);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void hashPlainTokens_throughALink_rewritesItsTarget_andKeepsTheLink() throws Exception {
        Path target = Files.writeString(dir.resolve("tokens"), "plain-token read\n");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);

        TokenFile.hashPlainTokens(link);

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(target)).isEqualTo("line-1 " + sha256("plain-token") + " read\n");
    }

    @Test
    void hashPlainTokens_whenLineNIsTaken_picksTheNextFreeName() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "line-2 " + sha256("a") + " read\n"
                + "plain-token write\n" + "line-2-2 " + sha256("b") + " read\n");

        TokenFile.hashPlainTokens(file);

        assertThat(AccessTokens.read(file).names()).containsExactly("line-2", "line-2-3", "line-2-2");
    }

    @Test
    void hashPlainTokens_keepsTheFilesLineBreaks() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# windows\r\nplain-token read\r\n");

        TokenFile.hashPlainTokens(file);

        assertThat(Files.readString(file)).isEqualTo("# windows\r\nline-2 " + sha256("plain-token")
                + " read\r\n");
    }

    @Test
    void hashPlainTokens_ofAHashedFile_convertsNothing_andLeavesItAlone() throws Exception {
        String text = "# hashed\nci " + sha256("t") + " read";
        Path file = Files.writeString(dir.resolve("tokens"), text);

        assertThat(TokenFile.hashPlainTokens(file)).isZero();
        assertThat(Files.readString(file)).isEqualTo(text);
    }

    @Test
    void hashPlainTokens_ofAMalformedFile_isRefused_andLeavesItUnchanged() throws Exception {
        String text = "plain-token read\nci sha256:123 read\n";
        Path file = Files.writeString(dir.resolve("tokens"), text);

        assertThatThrownBy(() -> TokenFile.hashPlainTokens(file))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
        assertThat(Files.readString(file)).isEqualTo(text);
    }

    @Test
    void hashPlainTokens_ofAMissingFile_isRefused() {
        assertThatThrownBy(() -> TokenFile.hashPlainTokens(dir.resolve("nowhere")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
    }

    @Test
    void hashPlainTokens_thenCreate_giveOneFileOfHashedLines() throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "plain-token read\n");
        TokenFile.hashPlainTokens(file);

        String token = TokenFile.create(file, "ci", Set.of(Scope.WRITE));

        AccessTokens tokens = AccessTokens.read(file);
        assertThat(tokens.names()).isEqualTo(List.of("line-1", "ci"));
        assertThat(tokens.check(token, Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("plain-token", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
    }
}
