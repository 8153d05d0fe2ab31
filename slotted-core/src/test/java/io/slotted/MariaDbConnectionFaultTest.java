package io.slotted;

import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.RestartableServer;
import io.slotted.db.TestDatabase;

/** Connection faults on MariaDB. */
class MariaDbConnectionFaultTest extends ConnectionFaultSuite {
    MariaDbConnectionFaultTest() {
        super(MariaDbTestDatabase.instance());
    }

    /** A query of the totals follows the flush. */
    @Override
    protected int roundTripsPerFlushWithTotals() {
        return 2;
    }

    @Override
    protected RestartableServer privateServer() {
        return EmbeddedMariaDbServer.privateServer("restart");
    }

    @Override
    protected TestDatabase privateDatabase(RestartableServer server) {
        return MariaDbTestDatabase.at(server.jdbcUrl());
    }
}
