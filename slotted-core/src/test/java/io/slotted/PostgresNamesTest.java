package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** The name dictionary suite on PostgreSQL. */
class PostgresNamesTest extends NameSuite {
    PostgresNamesTest() {
        super(PostgresTestDatabase.instance());
    }
}
