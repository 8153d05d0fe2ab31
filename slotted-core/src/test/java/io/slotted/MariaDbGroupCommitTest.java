package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** Queued write modes on MariaDB. */
class MariaDbGroupCommitTest extends GroupCommitSuite {
    MariaDbGroupCommitTest() {
        super(MariaDbTestDatabase.instance());
    }
}
