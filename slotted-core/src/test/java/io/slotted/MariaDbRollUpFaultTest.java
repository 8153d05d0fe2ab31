package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** Roll-ups cut at COMMIT on MariaDB. */
class MariaDbRollUpFaultTest extends RollUpFaultSuite {
    MariaDbRollUpFaultTest() {
        super(MariaDbTestDatabase.instance());
    }
}
