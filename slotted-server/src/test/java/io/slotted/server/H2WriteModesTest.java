package io.slotted.server;

import io.slotted.db.H2TestDatabase;

/** Both front ends in every write mode on H2. */
class H2WriteModesTest extends WriteModesSuite {
    H2WriteModesTest() {
        super(H2TestDatabase.instance());
    }
}
