package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** The counter behaviour suite on PostgreSQL. */
class PostgresCountersTest extends CounterBehaviourSuite {
    PostgresCountersTest(WriteMode mode) {
        super(PostgresTestDatabase.instance(), mode);
    }
}
