package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** The Redis protocol on MariaDB. */
class MariaDbRespTest extends RespSuite {
    MariaDbRespTest() {
        super(MariaDbTestDatabase.instance());
    }
}
