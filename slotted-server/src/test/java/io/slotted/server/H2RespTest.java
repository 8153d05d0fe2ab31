package io.slotted.server;

import io.slotted.db.H2TestDatabase;

/** The Redis protocol on H2, the embedded default, as a file database. */
class H2RespTest extends RespSuite {
    H2RespTest() {
        super(H2TestDatabase.instance());
    }
}
