package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** TLS on both front ends, on PostgreSQL. */
class PostgresTlsTest extends TlsSuite {
    PostgresTlsTest() {
        super(PostgresTestDatabase.instance());
    }
}
