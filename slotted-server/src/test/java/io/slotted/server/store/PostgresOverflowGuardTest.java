package io.slotted.server.store;

import io.slotted.db.PostgresTestDatabase;

/** The overflow guard on PostgreSQL. */
class PostgresOverflowGuardTest extends OverflowGuardSuite {
    PostgresOverflowGuardTest() {
        super(PostgresTestDatabase.instance());
    }
}
