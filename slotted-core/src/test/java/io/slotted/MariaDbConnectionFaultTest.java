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

    /** Connections that take several statements in one packet send the flush and the query together. */
    @Override
    protected String urlAnsweringTotalsInOneRoundTrip(int proxyPort) {
        return db.jdbcUrlVia("127.0.0.1", proxyPort) + "&allowMultiQueries=true";
    }

    /** A query of the totals follows the flush, on connections that take one statement a packet. */
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
