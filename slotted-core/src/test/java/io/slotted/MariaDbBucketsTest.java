package io.slotted;

import io.slotted.db.MariaDbTestDatabase;

/** The time bucket suite on MariaDB. */
class MariaDbBucketsTest extends BucketSuite {
    MariaDbBucketsTest(WriteMode mode) {
        super(MariaDbTestDatabase.instance(), mode);
    }
}
