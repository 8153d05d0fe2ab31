package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** The owner column suite on MariaDB. */
class MariaDbOwnerColumnTest extends OwnerColumnSuite {
    MariaDbOwnerColumnTest() {
        super(MariaDbTestDatabase.instance());
    }
}
