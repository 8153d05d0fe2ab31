package io.slotted.server.store;

import io.slotted.db.MariaDbTestDatabase;

/** The overflow guard on MariaDB. */
class MariaDbOverflowGuardTest extends OverflowGuardSuite {
    MariaDbOverflowGuardTest() {
        super(MariaDbTestDatabase.instance());
    }
}
