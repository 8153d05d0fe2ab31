package io.slotted.server;

import io.slotted.db.EmbeddedPostgresServer;
import io.slotted.db.RestartableServer;

/** The Redis protocol while a PostgreSQL server is stopped and started again. */
class PostgresRespRestartTest extends RespRestartSuite {
    @Override
    protected RestartableServer privateServer() {
        return EmbeddedPostgresServer.privateServer("resp-restart");
    }
}
