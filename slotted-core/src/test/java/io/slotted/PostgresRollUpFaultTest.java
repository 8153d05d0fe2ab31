package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** Roll-ups cut at COMMIT on PostgreSQL. */
class PostgresRollUpFaultTest extends RollUpFaultSuite {
    PostgresRollUpFaultTest() {
        super(PostgresTestDatabase.instance());
    }
}
