package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** The HTTP contract on PostgreSQL. */
class PostgresServiceTest extends ServiceSuite {
    PostgresServiceTest() {
        super(PostgresTestDatabase.instance());
    }
}
