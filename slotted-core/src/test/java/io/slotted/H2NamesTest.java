package io.slotted;

import io.slotted.db.H2TestDatabase;

/** The name dictionary suite on H2. */
class H2NamesTest extends NameSuite {
    H2NamesTest() {
        super(H2TestDatabase.instance());
    }
}
