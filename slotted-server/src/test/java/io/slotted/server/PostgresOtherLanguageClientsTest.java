package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;

/** Real clients of other languages, redis-py and ioredis, counting through the Redis protocol on PostgreSQL. */
class PostgresOtherLanguageClientsTest extends OtherLanguageClientsSuite {
    PostgresOtherLanguageClientsTest() {
        super(PostgresTestDatabase.instance());
    }
}
