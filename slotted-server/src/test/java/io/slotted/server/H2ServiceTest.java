package io.slotted.server;

import io.slotted.db.H2TestDatabase;

/** The HTTP contract on H2, the embedded default, as a file database. */
class H2ServiceTest extends ServiceSuite {
    H2ServiceTest() {
        super(H2TestDatabase.instance());
    }
}
