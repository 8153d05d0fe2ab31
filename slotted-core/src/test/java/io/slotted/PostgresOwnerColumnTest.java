package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** The owner column suite on PostgreSQL. */
class PostgresOwnerColumnTest extends OwnerColumnSuite {
    PostgresOwnerColumnTest() {
        super(PostgresTestDatabase.instance());
    }
}
