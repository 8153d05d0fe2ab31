package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.doctor.locks.MySqlLockWindow;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * MySQL 8: MariaDB's checks, but for where the servers part.
 *
 * <p>MySQL 8 dropped {@code information_schema.INNODB_LOCKS} and {@code INNODB_LOCK_WAITS}: its
 * row-lock waits are in {@code performance_schema.data_lock_waits} and {@code data_locks}
 * ({@link MySqlLockWindow}), which need {@code SELECT} on {@code performance_schema} besides
 * {@code PROCESS}. Since 8.0.21 the redo log can be switched off for the whole instance, which
 * makes every commit undurable whatever {@code innodb_flush_log_at_trx_commit} says, so it is a
 * setting of its own here. MySQL caches the statistics columns of {@code information_schema.TABLES}
 * — {@code AUTO_INCREMENT} among them — for {@code information_schema_stats_expiry} (a day by
 * default), so the next id is read with the cache off for that one query. And MySQL makes a
 * certificate authority of its own at first start, whose server certificate names no host: the
 * advice to turn TLS on says how to verify it.
 */
final class MySqlDoctorDialect extends MariaDbDoctorDialect {
    static final String TURN_TLS_ON = "add sslMode=verify-ca&serverSslCert=/path/to/ca.pem (MariaDB"
            + " Connector/J 3.x; MySQL 8 has TLS on by default with a certificate authority it made itself,"
            + " ca.pem in its data directory; verify-full needs a server certificate issued for its host name)";

    @Override
    public Optional<LockWindow> newLockWindow() {
        return Optional.of(new MySqlLockWindow());
    }

    @Override
    public String lockTablesRefused(SQLException refusal) {
        return "PROCESS and SELECT on performance_schema: GRANT PROCESS ON *.* TO <this user> and GRANT"
                + " SELECT ON performance_schema.* TO <this user> let the doctor read InnoDB's lock tables,"
                + " transactions and status; without them no hot rows, deadlocks or lock waits were sampled ("
                + FailureMessage.of(refusal) + ")";
    }

    @Override
    public List<Check> settings(Connection connection) throws SQLException {
        List<Check> checks = new ArrayList<>(super.settings(connection));
        firstValue(connection, "SELECT VARIABLE_VALUE FROM performance_schema.global_status"
                + " WHERE VARIABLE_NAME = 'Innodb_redo_log_enabled'").map(MySqlDoctorDialect::redoLog)
                .ifPresent(checks::add);
        return checks;
    }

    /** Without the redo log, nothing committed since the last checkpoint survives a crash. */
    static Check redoLog(String enabled) {
        String why = "with the redo log disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG, meant for loading"
                + " data) a crash can lose every acknowledged increment, and leave the data files unusable";
        return "ON".equalsIgnoreCase(enabled) ? Check.ok("Innodb_redo_log_enabled", enabled, why)
                : Check.finding("Innodb_redo_log_enabled", enabled, why, "ALTER INSTANCE ENABLE INNODB REDO_LOG");
    }

    @Override
    String turnTlsOn() {
        return TURN_TLS_ON;
    }

    @Override
    public Optional<Long> nextId(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION information_schema_stats_expiry = 0");
            try {
                return super.nextId(connection, table);
            } finally {
                statement.execute("SET SESSION information_schema_stats_expiry = DEFAULT");
            }
        }
    }
}
