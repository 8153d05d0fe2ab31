package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** Two service processes meeting the same new names, on MariaDB. */
class MariaDbNamesAcrossProcessesTest extends NamesAcrossProcessesSuite {
    MariaDbNamesAcrossProcessesTest() {
        super(MariaDbTestDatabase.instance());
    }
}
