package io.slotted.server.doctor.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.source.StringLiterals;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The server writes one database's SQL only in the doctor's dialects and lock windows: no string
 * literal elsewhere in the server names a catalog, a server variable or a command that belongs to
 * one database. Adding a database then touches those places alone, and a catalog query written
 * inline elsewhere fails here, naming the file and line. SQL that every database takes alike
 * (Slotted's own tables, the readiness probe) may be written where it is used.
 */
class DatabaseSqlLivesWithTheDialectsTest {
    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Path DOCTOR = SOURCES.resolve(Path.of("io", "slotted", "server", "doctor"));
    private static final List<Path> PER_DATABASE = List.of(DOCTOR.resolve("dialect"), DOCTOR.resolve("locks"));
    private static final Pattern ONE_DATABASES = Pattern.compile("(?i)information_schema|performance_schema"
            + "|\\bpg_[a-z_]+|@@|^\\s*SHOW\\s|\\binnodb_?|\\bctid\\b|\\bwsrep_");

    @Test
    void noOneDatabasesSqlIsWrittenOutsideTheDialects() throws IOException {
        List<String> inline = StringLiterals.matching(SOURCES, PER_DATABASE, ONE_DATABASES);

        assertThat(inline).as("one database's SQL written outside the doctor's dialects").isEmpty();
    }

    @Test
    void theCheckFindsOneDatabasesSqlWhereItIsWritten() {
        assertThat(ONE_DATABASES.matcher("SELECT COLUMN_TYPE FROM information_schema.COLUMNS").find()).isTrue();
        assertThat(ONE_DATABASES.matcher("SELECT @@GLOBAL.sync_binlog").find()).isTrue();
        assertThat(ONE_DATABASES.matcher("SELECT deadlocks FROM pg_stat_database").find()).isTrue();
        assertThat(ONE_DATABASES.matcher("SHOW synchronous_commit").find()).isTrue();
        assertThat(ONE_DATABASES.matcher("SELECT count FROM slotted_counters WHERE 1 = 0").find()).isFalse();
        assertThat(ONE_DATABASES.matcher("the counter table cannot be read").find()).isFalse();
    }
}
