package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** Both front ends in every write mode on PostgreSQL. */
class PostgresWriteModesTest extends WriteModesSuite {
    PostgresWriteModesTest() {
        super(PostgresTestDatabase.instance());
    }
}
