package io.slotted;

import io.slotted.db.H2TestDatabase;

/** The time bucket suite on H2. */
class H2BucketsTest extends BucketSuite {
    H2BucketsTest(WriteMode mode) {
        super(H2TestDatabase.instance(), mode);
    }
}
