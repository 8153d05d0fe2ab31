package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** TLS on both front ends, on MariaDB. */
class MariaDbTlsTest extends TlsSuite {
    MariaDbTlsTest() {
        super(MariaDbTestDatabase.instance());
    }
}
