package io.slotted.server.store;

import io.slotted.db.H2TestDatabase;

/** The overflow guard on H2. */
class H2OverflowGuardTest extends OverflowGuardSuite {
    H2OverflowGuardTest() {
        super(H2TestDatabase.instance());
    }
}
