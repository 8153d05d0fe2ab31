package io.slotted.spring.boot;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.util.ClassUtils;

/**
 * Where the counters get their connections: a pool of their own beside the application's, made
 * as the application's HikariCP pool is made (same database, credentials, driver properties,
 * initial SQL and timeouts) but sized for the counters ({@code slotted.pool-size}) and with the
 * JDBC defaults for auto-commit, isolation and read-only.
 *
 * <p>Why a pool of their own: an increment made inside a transaction waits for a flush while the
 * transaction holds a connection of the application's pool. Were the flushes to borrow from that
 * pool too, enough such transactions at once would hold every connection and each would wait for
 * the pool's timeout. On a pool of their own no counter operation ever waits for a connection that
 * the application holds, and the application's pool keeps every connection it was sized for.
 *
 * <p>When the application's data source is not a HikariCP pool, there is nothing to copy the
 * settings from, and the counters share it: the library's flushers then keep their own
 * connections of it from start-up on, which keeps increments inside transactions from stalling
 * but takes {@code slotted.flushers} connections from the application.
 */
final class SlottedConnections implements AutoCloseable {
    private static final boolean HIKARI_PRESENT =
            ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource", SlottedConnections.class.getClassLoader());

    private final DataSource dataSource;
    private final AutoCloseable ownPool;

    private SlottedConnections(DataSource dataSource, AutoCloseable ownPool) {
        this.dataSource = dataSource;
        this.ownPool = ownPool;
    }

    /**
     * The counters' connections for an application's data source.
     *
     * @param application the application's data source
     * @param properties the {@code slotted.*} properties, for the pool's size
     * @return a pool of the counters' own when the application's is a HikariCP pool, else the
     *     application's data source, shared
     * @throws InvalidSlottedPropertyException if {@code slotted.pool-size} is too small
     */
    static SlottedConnections of(DataSource application, SlottedProperties properties) {
        int size = poolSize(properties);
        if (!HIKARI_PRESENT) {
            return new SlottedConnections(application, null);
        }
        return HikariCopy.of(application, size).orElseGet(() -> new SlottedConnections(application, null));
    }

    /**
     * The pool's size: {@code slotted.pool-size}, else four more than the flushers, which keep
     * theirs — the others serve reads, roll-ups and {@code direct} writes, each briefly.
     */
    private static int poolSize(SlottedProperties properties) {
        Integer size = properties.getPoolSize();
        int least = properties.getFlushers() + 1;
        if (size == null) {
            return properties.getFlushers() + 4;
        }
        if (size < least) {
            throw new InvalidSlottedPropertyException("slotted.pool-size", size, new IllegalArgumentException(
                    "the pool needs a connection for each of the " + properties.getFlushers()
                            + " flushers (slotted.flushers) and one more for reads: at least " + least));
        }
        return size;
    }

    /** The data source the counters are built on. */
    DataSource dataSource() {
        return dataSource;
    }

    /** Whether the counters have a pool of their own. */
    boolean ownPool() {
        return ownPool != null;
    }

    /** Closes the counters' own pool, if they have one; call after the counters are closed. */
    @Override
    public void close() throws Exception {
        if (ownPool != null) {
            ownPool.close();
        }
    }

    @Override
    public String toString() {
        return ownPool != null ? "SlottedConnections[own pool " + dataSource + "]"
                : "SlottedConnections[shared " + dataSource + "]";
    }

    /** Kept apart so that HikariCP's classes are loaded only when it is on the class path. */
    private static final class HikariCopy {
        static Optional<SlottedConnections> of(DataSource application, int size) {
            HikariDataSource settings;
            try {
                if (!application.isWrapperFor(HikariDataSource.class)) {
                    return Optional.empty();
                }
                settings = application.unwrap(HikariDataSource.class);
            } catch (SQLException e) {
                return Optional.empty();
            }
            // Not started until first asked for a connection, as the application's pool: the
            // application can start while its database is still down.
            HikariDataSource own = new HikariDataSource();
            settings.copyStateTo(own);
            own.setPoolName((settings.getPoolName() == null ? "" : settings.getPoolName() + "-") + "slotted");
            // The same database reached the same way, but the counters' transactions are their own:
            // an application's auto-commit off (common with JPA), isolation or read-only setting
            // is for its own work. The counters set what they need per transaction.
            own.setAutoCommit(true);
            own.setTransactionIsolation(null);
            own.setReadOnly(false);
            own.setMaximumPoolSize(size);
            own.setMinimumIdle(size);
            return Optional.of(new SlottedConnections(own, own));
        }
    }
}
