package io.slotted;

import io.slotted.db.H2TestDatabase;

/** The counter behaviour suite on H2, Slotted's embedded default, as a file database. */
class H2CountersTest extends CounterBehaviourSuite {
    H2CountersTest(WriteMode mode) {
        super(H2TestDatabase.instance(), mode);
    }
}
