package io.slotted.server.doctor.locks;

import java.util.Map;

/**
 * A row that sessions queued for during the window.
 *
 * @param table the row's table, {@code schema.table}
 * @param index the index the waits were on, when the database says
 * @param key the row's key, column by column (or its physical address, when the key could not
 *     be read)
 * @param waits how many waiting transactions were seen
 * @param sessions how many distinct connections they came from
 * @param totalWaitMillis their waits added up, a lower bound (each as long as it was seen)
 * @param longestWaitMillis the longest of them, a lower bound
 * @param statement the statement that waited most often, with literals as {@code ?}
 * @param advice what to do about it
 */
public record HotRow(String table, String index, Map<String, String> key, int waits, int sessions,
        long totalWaitMillis, long longestWaitMillis, String statement, String advice) {
}
