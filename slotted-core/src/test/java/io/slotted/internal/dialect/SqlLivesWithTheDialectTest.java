package io.slotted.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.source.StringLiterals;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every SQL statement of the engine comes from the dialect: no string literal outside
 * {@code io.slotted.internal.dialect} begins a statement or takes a row lock. A database whose
 * SQL differs then needs a dialect of its own and nothing else, and a new statement written
 * inline in an engine class fails here, naming the file and line.
 */
class SqlLivesWithTheDialectTest {
    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Path DIALECT = SOURCES.resolve(Path.of("io", "slotted", "internal", "dialect"));
    private static final Pattern STATEMENT = Pattern.compile(
            "^\\s*(SELECT|INSERT|UPDATE|DELETE|MERGE|CREATE|ALTER|DROP|WITH|SHOW|SET|TRUNCATE)\\s"
                    + "|FOR UPDATE|NOWAIT|ON DUPLICATE KEY|ON CONFLICT");

    @Test
    void noStatementIsWrittenOutsideTheDialect() throws IOException {
        List<String> inline = StringLiterals.matching(SOURCES, List.of(DIALECT), STATEMENT);

        assertThat(inline).as("SQL written outside io.slotted.internal.dialect").isEmpty();
    }

    @Test
    void theCheckFindsAStatementWhereOneIsWritten() {
        assertThat(STATEMENT.matcher("SELECT count FROM t WHERE k = ? FOR UPDATE").find()).isTrue();
        assertThat(STATEMENT.matcher(" FOR UPDATE NOWAIT").find()).isTrue();
        assertThat(STATEMENT.matcher("the counter table cannot be read").find()).isFalse();
    }
}
