package io.slotted.server.doctor.locks;

import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Row-lock waits on MySQL 8's InnoDB: MariaDB's window, asking the tables MySQL 8 replaced
 * {@code information_schema.INNODB_LOCKS} and {@code INNODB_LOCK_WAITS} with.
 *
 * <p>Each sample joins {@code performance_schema.data_lock_waits} (which lock request waits behind
 * which held lock) with {@code information_schema.INNODB_TRX} on the requesting transaction (its
 * statement, connection and when its wait began; {@code data_lock_waits} numbers transactions as
 * integers, {@code INNODB_TRX} as text, so the id is cast, as MySQL's own
 * {@code sys.innodb_lock_waits} does) and with {@code performance_schema.data_locks} on the
 * requested lock (its schema, table, index and {@code LOCK_DATA}, the record's key values in the
 * same decoded form as MariaDB's {@code lock_data}). The lock tables are read live; only
 * {@code INNODB_TRX} still comes from InnoDB's cache, which leaves out a wait begun in the cache's
 * last tenth of a second rather than showing one that has ended.
 *
 * <p>The window's counters: {@code lock_deadlocks} and {@code lock_timeouts} from
 * {@code information_schema.INNODB_METRICS}, both on by default (MySQL has no
 * {@code Innodb_deadlocks}; a counter switched off counts as unknown), and {@code Innodb_row_lock_time}
 * from {@code performance_schema.global_status} ({@code information_schema.GLOBAL_STATUS} is gone
 * in MySQL 8). The latest deadlock is read from {@code SHOW ENGINE INNODB STATUS} as on MariaDB.
 * Reading it all needs {@code PROCESS} and {@code SELECT} on {@code performance_schema}.
 */
public final class MySqlLockWindow extends MariaDbLockWindow {
    private static final String WAITS = "SELECT r.trx_id, r.trx_mysql_thread_id, r.trx_query,"
            + " TIMESTAMPDIFF(SECOND, r.trx_wait_started, NOW()), l.OBJECT_SCHEMA, l.OBJECT_NAME,"
            + " l.INDEX_NAME, l.LOCK_DATA"
            + " FROM performance_schema.data_lock_waits w"
            + " JOIN information_schema.INNODB_TRX r ON r.trx_id = CAST(w.REQUESTING_ENGINE_TRANSACTION_ID AS CHAR)"
            + " JOIN performance_schema.data_locks l ON l.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID"
            + " AND l.ENGINE = w.ENGINE";
    private static final String COUNTERS = "SELECT (SELECT COUNT FROM information_schema.INNODB_METRICS"
            + " WHERE NAME = 'lock_deadlocks' AND STATUS = 'enabled'),"
            + " (SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_row_lock_time'),"
            + " (SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'lock_timeouts' AND STATUS = 'enabled')";

    @Override
    String waitsSql() {
        return WAITS;
    }

    @Override
    Wait waitOf(ResultSet row) throws SQLException {
        return new Wait(row.getString(1), row.getLong(2), new TableRef(row.getString(5), row.getString(6)),
                row.getString(7), key(row.getString(8)), row.getString(3), waitedMillis(row.getLong(4)));
    }

    @Override
    String countersSql() {
        return COUNTERS;
    }
}
