package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** The HTTP contract on MariaDB. */
class MariaDbServiceTest extends ServiceSuite {
    MariaDbServiceTest() {
        super(MariaDbTestDatabase.instance());
    }
}
