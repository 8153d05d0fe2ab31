package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** Both front ends in every write mode on MariaDB. */
class MariaDbWriteModesTest extends WriteModesSuite {
    MariaDbWriteModesTest() {
        super(MariaDbTestDatabase.instance());
    }
}
