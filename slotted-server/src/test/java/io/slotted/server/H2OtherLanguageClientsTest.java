package io.slotted.server;

import io.slotted.db.H2TestDatabase;

/**
 * Real clients of other languages, redis-py and ioredis, counting through the Redis protocol on H2, the
 * embedded default, as a file database.
 */
class H2OtherLanguageClientsTest extends OtherLanguageClientsSuite {
    H2OtherLanguageClientsTest() {
        super(H2TestDatabase.instance());
    }
}
