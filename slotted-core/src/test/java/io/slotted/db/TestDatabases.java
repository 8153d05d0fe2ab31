package io.slotted.db;

import io.slotted.WriteMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The databases the suites run on, in one list: adding a database to the tests is one entry in
 * {@link #all()}. A suite runs over them by parameter, one run per database:
 *
 * <pre>{@code
 * @ParameterizedClass(name = "[{arguments}]")
 * @MethodSource("io.slotted.db.TestDatabases#all")
 * class NameSuite extends CounterTableTest {
 * }</pre>
 *
 * <p>A suite that needs what only some databases offer runs over a named subset of that list,
 * drawn from it by the kind of each database: {@link #servers()}, {@link #withPrivateServers()};
 * a suite whose subject does not change with the database runs on one, {@link #underFrontEnds()}.
 * Every database is a real one, and one that cannot be reached fails its tests: none is skipped.
 *
 * <p>JUnit names each run by its arguments ({@code [MariaDB]}, {@code [MariaDB, GROUPED]});
 * Surefire's reports name it by its place in this order instead ({@code NameSuite[2]}).
 */
public final class TestDatabases {
    private TestDatabases() {
    }

    /**
     * Every database the suites run on: H2 as Slotted embeds it; MariaDB and PostgreSQL, named by
     * {@code SLOTTED_TEST_MARIADB_URL} and {@code SLOTTED_TEST_POSTGRES_URL} or else started from
     * Maven Central; and MySQL where {@code SLOTTED_TEST_MYSQL_URL} names one, since none can be
     * started from Maven Central.
     */
    public static List<TestDatabase> all() {
        List<TestDatabase> all = new ArrayList<>(List.of(
                H2TestDatabase.instance(),
                MariaDbTestDatabase.instance(),
                PostgresTestDatabase.instance()));
        MySqlTestDatabase.configured().ifPresent(all::add);
        return all;
    }

    /**
     * The database servers reached over TCP, which a proxy can stand in front of and in which a
     * test may make a database of its own: all but H2, a file of this process.
     */
    public static List<ServerTestDatabase> servers() {
        return all().stream().filter(ServerTestDatabase.class::isInstance)
                .map(ServerTestDatabase.class::cast).toList();
    }

    /**
     * The servers of which a test can start a private one, to stop and start it or to give it TLS:
     * those the tests can start from Maven Central.
     */
    public static List<ServerTestDatabase> withPrivateServers() {
        return servers().stream().filter(db -> db.privateServers().isPresent()).toList();
    }

    /**
     * The one database under the suites whose subject is a front end's own layer — TLS, the
     * clients of other languages — which does not change with the database under the service:
     * MariaDB. The service's write path is checked on every database by the suites of its front
     * ends ({@code ServiceSuite}, {@code RespSuite}).
     */
    public static List<TestDatabase> underFrontEnds() {
        return List.of(MariaDbTestDatabase.instance());
    }

    /** The servers started from Maven Central, whatever the environment names. */
    public static List<TestDatabase> embedded() {
        return List.of(MariaDbTestDatabase.embedded(), PostgresTestDatabase.embedded());
    }

    /** Each database in each mode, the database first: the arguments of a suite run over both. */
    public static Stream<Arguments> inModes(List<? extends TestDatabase> databases, WriteMode... modes) {
        return databases.stream().flatMap(db -> Arrays.stream(modes).map(mode -> Arguments.of(db, mode)));
    }
}
