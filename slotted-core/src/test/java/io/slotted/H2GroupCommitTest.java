package io.slotted;

import io.slotted.db.H2TestDatabase;

/** Queued write modes on H2. */
class H2GroupCommitTest extends GroupCommitSuite {
    H2GroupCommitTest() {
        super(H2TestDatabase.instance());
    }
}
