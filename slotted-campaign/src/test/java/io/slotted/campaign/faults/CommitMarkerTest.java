package io.slotted.campaign.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.internal.dialect.Dialect;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which requests count as carrying a commit, as the drivers spell them. */
class CommitMarkerTest {

    @ParameterizedTest
    @ValueSource(strings = {"COMMIT", "\u0003COMMIT", "P\0\0COMMIT\0\0\0B", "COMMIT;",
            Dialect.FLUSH_COMMENT + "INSERT INTO t VALUES (1)"})
    void commitOrFlush_isACommit(String request) {
        assertThat(isIn(request)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
            "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED", "set autocommit=1",
            "commit", "SELECT 1", "/* slotted */ INSERT INTO t VALUES (1)"})
    void anythingElse_isNot(String request) {
        assertThat(isIn(request)).isFalse();
    }

    private static boolean isIn(String request) {
        byte[] bytes = ("xx" + request + "yy").getBytes(StandardCharsets.ISO_8859_1);
        return CommitMarker.isIn(bytes, 2, bytes.length - 2);
    }
}
