package io.slotted.server.doctor.locks;

import java.util.List;

/**
 * One session waiting for a row lock, as one sample saw it.
 *
 * @param waiter the waiting transaction (InnoDB's transaction id, PostgreSQL's backend pid and
 *     transaction start), the same in every sample while it waits
 * @param session the waiting connection's id
 * @param table the locked row's table
 * @param index the index the lock is on ({@code PRIMARY} on InnoDB's clustered index), or null
 * @param key the locked row's key values, or its physical address where the key cannot be read
 * @param statement the waiting statement, as the database shows it
 * @param waitedMillis how long the database says it has waited so far, a lower bound
 */
public record Wait(String waiter, long session, TableRef table, String index, List<String> key,
        String statement, long waitedMillis) {
}
