package io.slotted.server;

import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.db.RestartableServer;

/** The Redis protocol while a MariaDB server is stopped and started again. */
class MariaDbRespRestartTest extends RespRestartSuite {
    @Override
    protected RestartableServer privateServer() {
        return EmbeddedMariaDbServer.privateServer("resp-restart");
    }
}
