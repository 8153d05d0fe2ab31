package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** The Redis protocol on PostgreSQL. */
class PostgresRespTest extends RespSuite {
    PostgresRespTest() {
        super(PostgresTestDatabase.instance());
    }
}
