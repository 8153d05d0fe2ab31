package io.slotted.server.doctor.locks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Adds up the samples of a window, row by row.
 *
 * <p>A waiting transaction is counted once however many samples saw it, with the longest wait
 * any of them reported. A row is hot when at least {@value #MIN_WAITS} transactions queued for it
 * in the window, or one waited at least {@value #MIN_LONG_WAIT_MILLIS} ms: a single short wait is
 * what row locks are for.
 */
public final class HotRows {
    /** Transactions queued for a row in the window that make it hot. */
    public static final int MIN_WAITS = 3;
    /** A single wait this long makes a row hot. */
    public static final long MIN_LONG_WAIT_MILLIS = 1_000;

    private final Map<RowKey, Row> rows = new LinkedHashMap<>();

    /** A row as the samples name it. */
    private record RowKey(TableRef table, String index, List<String> key) {
    }

    /** What the samples saw of one row. */
    private static final class Row {
        final Map<String, Long> waited = new HashMap<>();
        final Map<String, Long> firstSeen = new HashMap<>();
        final Set<Long> sessions = new HashSet<>();
        final Map<String, Integer> statements = new HashMap<>();

        void merge(Row other) {
            other.waited.forEach((waiter, millis) -> waited.merge(waiter, millis, Math::max));
            sessions.addAll(other.sessions);
            other.statements.forEach((statement, n) -> statements.merge(statement, n, Integer::sum));
        }
    }

    /**
     * Adds one sample. A transaction's wait is the longer of what the database reports and how
     * long the samples have seen it waiting.
     *
     * @param waits the sessions waiting when the sample was taken
     * @param sampledAtMillis when, on a monotonic clock
     */
    public void add(List<Wait> waits, long sampledAtMillis) {
        for (Wait wait : waits) {
            Row row = rows.computeIfAbsent(new RowKey(wait.table(), wait.index(), wait.key()),
                    ignored -> new Row());
            boolean firstSight = !row.waited.containsKey(wait.waiter());
            long seenFor = sampledAtMillis - row.firstSeen.computeIfAbsent(wait.waiter(), w -> sampledAtMillis);
            row.waited.merge(wait.waiter(), Math.max(wait.waitedMillis(), seenFor), Math::max);
            row.sessions.add(wait.session());
            if (firstSight) {
                row.statements.merge(Statements.normalise(wait.statement()), 1, Integer::sum);
            }
        }
    }

    /**
     * The hot rows, the most waited for first.
     *
     * @param keyColumns names a table's key columns for an index
     * @param advice what to do about a row, from its table and statement
     * @return the rows that pass the bar
     */
    public List<HotRow> hot(Function<RowSpec, List<String>> keyColumns, Function<RowSpec, String> advice) {
        mergeUnnamedRows();
        List<HotRow> hot = new ArrayList<>();
        rows.forEach((at, row) -> {
            long longest = row.waited.values().stream().mapToLong(Long::longValue).max().orElse(0);
            if (row.waited.size() < MIN_WAITS && longest < MIN_LONG_WAIT_MILLIS) {
                return;
            }
            String statement = row.statements.entrySet().stream()
                    .max(Map.Entry.<String, Integer>comparingByValue()).map(Map.Entry::getKey).orElse("");
            RowSpec spec = new RowSpec(at.table(), at.index(), at.key(), statement);
            hot.add(new HotRow(at.table().toString(), at.index(), labelled(keyColumns.apply(spec), at.key()),
                    row.waited.size(), row.sessions.size(),
                    row.waited.values().stream().mapToLong(Long::longValue).sum(), longest, statement,
                    advice.apply(spec)));
        });
        hot.sort(Comparator.comparingInt(HotRow::waits).reversed());
        return hot;
    }

    /**
     * InnoDB sometimes leaves a waiting lock's record unnamed (its key is not shown when the
     * lock is read): such waits belong to the one named row of the same table and index, when
     * there is exactly one; otherwise they stay a row of their own, without a key.
     */
    private void mergeUnnamedRows() {
        for (RowKey unnamed : List.copyOf(rows.keySet())) {
            if (!unnamed.key().isEmpty()) {
                continue;
            }
            List<RowKey> named = rows.keySet().stream().filter(other -> !other.key().isEmpty()
                    && other.table().equals(unnamed.table()) && Objects.equals(other.index(), unnamed.index()))
                    .toList();
            if (named.size() == 1) {
                rows.get(named.get(0)).merge(rows.remove(unnamed));
            }
        }
    }

    /**
     * How many waiting transactions were seen in all, for sharing out a total wait time.
     *
     * @return the transactions seen waiting, every row together
     */
    public int waitsSeen() {
        return rows.values().stream().mapToInt(row -> row.waited.size()).sum();
    }

    /**
     * A hot row as the advice sees it.
     *
     * @param table its table
     * @param index the index its lock was on, or null
     * @param key its key values
     * @param statement the statement that waited most often, normalised
     */
    public record RowSpec(TableRef table, String index, List<String> key, String statement) {
    }

    /** The key's values by column name, when the names fit; by position otherwise. */
    private static Map<String, String> labelled(List<String> columns, List<String> values) {
        Map<String, String> key = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            key.put(columns.size() == values.size() ? columns.get(i) : String.valueOf(i), values.get(i));
        }
        return key;
    }
}
