package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** Queued write modes on PostgreSQL. */
class PostgresGroupCommitTest extends GroupCommitSuite {
    PostgresGroupCommitTest() {
        super(PostgresTestDatabase.instance());
    }
}
