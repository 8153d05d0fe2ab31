package io.slotted;

import io.slotted.db.EmbeddedPostgresServer;
import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.RestartableServer;
import io.slotted.db.TestDatabase;

/** Connection faults on PostgreSQL. */
class PostgresConnectionFaultTest extends ConnectionFaultSuite {
    PostgresConnectionFaultTest() {
        super(PostgresTestDatabase.instance());
    }

    /** The flush's WITH … RETURNING answers the totals. */
    @Override
    protected int roundTripsPerFlushWithTotals() {
        return 1;
    }

    @Override
    protected RestartableServer privateServer() {
        return EmbeddedPostgresServer.privateServer("restart");
    }

    @Override
    protected TestDatabase privateDatabase(RestartableServer server) {
        return PostgresTestDatabase.at(server.jdbcUrl());
    }
}
