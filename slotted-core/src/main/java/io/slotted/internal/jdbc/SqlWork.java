package io.slotted.internal.jdbc;

import io.slotted.internal.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * One attempt at some database work, on a connection the caller of {@link Retrier} provides.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface SqlWork<T> {
    /**
     * Does the work once.
     *
     * @param connection an open connection, closed by the caller afterwards
     * @param dialect the database's dialect
     * @return the result
     * @throws SQLException on any failure; the caller classifies it
     */
    T run(Connection connection, Dialect dialect) throws SQLException;
}
