package io.slotted.server;

import io.slotted.db.H2TestDatabase;

/** TLS on both front ends, on H2, the embedded default, as a file database. */
class H2TlsTest extends TlsSuite {
    H2TlsTest() {
        super(H2TestDatabase.instance());
    }
}
