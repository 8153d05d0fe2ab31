package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** The name dictionary suite on MariaDB. */
class MariaDbNamesTest extends NameSuite {
    MariaDbNamesTest() {
        super(MariaDbTestDatabase.instance());
    }
}
