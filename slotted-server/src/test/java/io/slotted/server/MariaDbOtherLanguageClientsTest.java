package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;

/** Real clients of other languages, redis-py and ioredis, counting through the Redis protocol on MariaDB. */
class MariaDbOtherLanguageClientsTest extends OtherLanguageClientsSuite {
    MariaDbOtherLanguageClientsTest() {
        super(MariaDbTestDatabase.instance());
    }
}
