package io.slotted;

import io.slotted.db.PostgresTestDatabase;

/** The time bucket suite on PostgreSQL. */
class PostgresBucketsTest extends BucketSuite {
    PostgresBucketsTest(WriteMode mode) {
        super(PostgresTestDatabase.instance(), mode);
    }
}
