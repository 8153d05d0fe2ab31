package io.slotted.internal.dialect;

/**
 * A one-statement flush whose numbers are parameters rather than text: the same text for every
 * flush of as many rows, which a database that plans a prepared statement once reuses.
 *
 * @param sql the statement, with a parameter for each number
 * @param parameters the numbers, in order
 */
public record PreparedFlush(String sql, long[] parameters) {
}
