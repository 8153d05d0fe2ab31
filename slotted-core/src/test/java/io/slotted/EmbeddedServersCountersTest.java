package io.slotted;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.PostgresTestDatabase;
import org.junit.jupiter.api.Nested;

/**
 * Proves that {@code mvn verify} works on a machine with only a JDK and Maven: the behaviour
 * suite against a MariaDB and a PostgreSQL started from Maven Central, whatever the environment
 * says.
 */
class EmbeddedServersCountersTest {

    @Nested
    class OnEmbeddedMariaDb extends CounterBehaviourSuite {
        OnEmbeddedMariaDb(WriteMode mode) {
            super(MariaDbTestDatabase.embedded(), mode);
        }
    }

    @Nested
    class OnEmbeddedPostgres extends CounterBehaviourSuite {
        OnEmbeddedPostgres(WriteMode mode) {
            super(PostgresTestDatabase.embedded(), mode);
        }
    }
}
