package io.slotted;

import io.slotted.db.H2TestDatabase;

/** The owner column suite on H2. */
class H2OwnerColumnTest extends OwnerColumnSuite {
    H2OwnerColumnTest() {
        super(H2TestDatabase.instance());
    }
}
