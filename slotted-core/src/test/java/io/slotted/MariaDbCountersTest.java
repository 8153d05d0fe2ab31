package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** The counter behaviour suite on MariaDB. */
class MariaDbCountersTest extends CounterBehaviourSuite {
    MariaDbCountersTest(WriteMode mode) {
        super(MariaDbTestDatabase.instance(), mode);
    }
}
