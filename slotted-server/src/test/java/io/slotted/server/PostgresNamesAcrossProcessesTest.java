package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** Two service processes meeting the same new names, on PostgreSQL. */
class PostgresNamesAcrossProcessesTest extends NamesAcrossProcessesSuite {
    PostgresNamesAcrossProcessesTest() {
        super(PostgresTestDatabase.instance());
    }
}
