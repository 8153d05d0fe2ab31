package io.slotted.internal.names;

import io.slotted.NameLimitException;
import io.slotted.SlottedException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.jdbc.Retrier;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Lookups of names the process has not cached, made by a few threads in batches: every lookup
 * waiting when a thread comes round goes to the database with it, a few hundred names per
 * statement. So a burst of new names (a benchmark's random keys, a restart's first requests)
 * costs a round trip per batch, not per name, and a client sending new names as fast as it can
 * holds at most {@value #THREADS} connections and threads, whatever it sends. More than one
 * thread because recording names is a commit, which waits for the database's log to reach the
 * disk: one thread would wait for those one after another, while the database writes the log of
 * several commits at once (measured on PostgreSQL: one thread recorded about 2,000 new names a
 * second under 50 clients; see docs/benchmarks.md).
 *
 * <p>New names pass the process's allowance of new names per second first; those over it are
 * only looked up, and fail with {@link NameLimitException} if no process recorded them. Type names
 * are also bounded in number. At most {@value #MAX_WAITING} lookups wait; more are refused at once.
 */
final class NameLookups implements AutoCloseable {
    /** Lookups that may wait for a thread. */
    static final int MAX_WAITING = 100_000;
    /** Threads that look names up, each with a connection while it does. */
    static final int THREADS = 4;

    /**
     * One name to find or record.
     *
     * @param space where its number comes from
     * @param recordType the type it belongs to
     * @param name the name
     * @param create whether to record it if missing
     * @param answer completed with its number, or empty when missing and not created
     */
    record Lookup(NumberSpace space, int recordType, String name, boolean create,
            CompletableFuture<OptionalLong> answer) {
    }

    /** Lookups that go to the database together: same range, type and intent. */
    private record Group(NumberSpace space, int recordType, boolean create) {
    }

    private final NameRows rows;
    private final Retrier retrier;
    private final NewNameAllowance allowance;
    private final int maxTypeNames;
    private final BiConsumer<Lookup, Long> learned;
    private final BlockingQueue<Lookup> waiting = new ArrayBlockingQueue<>(MAX_WAITING);
    private final Object starting = new Object();
    /** Started on the first lookup; read without the lock only to skip it once all have started. */
    private final List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;

    NameLookups(NameRows rows, Retrier retrier, NewNameAllowance allowance, int maxTypeNames,
            BiConsumer<Lookup, Long> learned) {
        this.rows = rows;
        this.retrier = retrier;
        this.allowance = allowance;
        this.maxTypeNames = maxTypeNames;
        this.learned = learned;
    }

    /**
     * Queues a lookup for the thread, starting it on first use.
     *
     * @param lookup the lookup
     * @return its answer
     */
    CompletableFuture<OptionalLong> submit(Lookup lookup) {
        if (closed) {
            lookup.answer().completeExceptionally(new IllegalStateException("the counters are closed"));
        } else if (!waiting.offer(lookup)) {
            lookup.answer().completeExceptionally(new NameLimitException(MAX_WAITING + " name lookups"
                    + " are waiting for the database already; retry when fewer names are new"));
        } else {
            startIfNeeded();
        }
        return lookup.answer();
    }

    private void startIfNeeded() {
        if (threads.size() == THREADS) {
            return;
        }
        synchronized (starting) {
            while (threads.size() < THREADS && !closed) {
                Thread started = new Thread(this::run, "slotted-names-" + (threads.size() + 1));
                started.setDaemon(true);
                started.start();
                threads.add(started);
            }
        }
    }

    private void run() {
        List<Lookup> batch = new ArrayList<>();
        while (!closed) {
            try {
                batch.add(waiting.take());
            } catch (InterruptedException e) {
                break;
            }
            waiting.drainTo(batch, NameRows.BATCH * 4);
            groups(batch).forEach(this::answer);
            batch.clear();
        }
        failWaiting();
    }

    private static Map<Group, Map<String, List<Lookup>>> groups(List<Lookup> batch) {
        Map<Group, Map<String, List<Lookup>>> groups = new LinkedHashMap<>();
        for (Lookup lookup : batch) {
            groups.computeIfAbsent(new Group(lookup.space(), lookup.recordType(), lookup.create()),
                    group -> new LinkedHashMap<>())
                    .computeIfAbsent(lookup.name(), name -> new ArrayList<>(1)).add(lookup);
        }
        return groups;
    }

    /** Answers one group's lookups, {@link NameRows#BATCH} names per round trip. */
    private void answer(Group group, Map<String, List<Lookup>> byName) {
        List<String> names = new ArrayList<>(byName.keySet());
        for (int from = 0; from < names.size(); from += NameRows.BATCH) {
            List<String> chunk = names.subList(from, Math.min(names.size(), from + NameRows.BATCH));
            try {
                Map<String, Long> numbers = group.create() ? record(group, chunk) : lookUp(group, chunk);
                for (String name : chunk) {
                    complete(byName.get(name), numbers.get(name), group);
                }
            } catch (RuntimeException e) {
                chunk.forEach(name -> byName.get(name).forEach(l -> l.answer().completeExceptionally(e)));
            }
        }
    }

    private void complete(List<Lookup> lookups, Long number, Group group) {
        for (Lookup lookup : lookups) {
            if (number != null) {
                learned.accept(lookup, number);
                lookup.answer().complete(OptionalLong.of(number));
            } else if (group.create()) {
                lookup.answer().completeExceptionally(refusal(group));
            } else {
                lookup.answer().complete(OptionalLong.empty());
            }
        }
    }

    private NameLimitException refusal(Group group) {
        return group.space() == NumberSpace.TYPES
                ? new NameLimitException("the name dictionary holds " + maxTypeNames + " type names,"
                        + " the most allowed (maxTypeNames, serve --max-type-names): nothing was"
                        + " recorded; use a type name that exists")
                : new NameLimitException("more than " + allowance.perSecond() + " new ids per second"
                        + " (newNamesPerSecond, serve --new-ids-per-second): this id was not recorded"
                        + " and nothing was counted; retry later, or use ids that exist");
    }

    private Map<String, Long> lookUp(Group group, List<String> names) {
        return retrier.read("look up names", (connection, dialect) ->
                rows.lookUp(connection, dialect, group.recordType(), names));
    }

    /**
     * Finds the names that exist and records the new ones the bounds allow; names left out are
     * refused by the caller.
     */
    private Map<String, Long> record(Group group, List<String> names) {
        if (group.space() == NumberSpace.TYPES) {
            return retrier.write("record type names", (connection, dialect) -> recordTypes(connection, dialect, group, names));
        }
        int allowed = allowance.take(names.size());
        return retrier.write("record ids", (connection, dialect) -> {
            Map<String, Long> found = new LinkedHashMap<>();
            if (allowed > 0) {
                found.putAll(rows.claim(connection, dialect, group.space(), group.recordType(),
                        names.subList(0, allowed)));
            }
            if (allowed < names.size()) {
                found.putAll(rows.lookUp(connection, dialect, group.recordType(),
                        names.subList(allowed, names.size())));
            }
            return found;
        });
    }

    /** Type names are few: each batch counts them first, and records only as many as fit. */
    private Map<String, Long> recordTypes(Connection connection, Dialect dialect, Group group,
            List<String> names) throws SQLException {
        Map<String, Long> found = new LinkedHashMap<>(rows.lookUp(connection, dialect, group.recordType(), names));
        List<String> missing = names.stream().filter(name -> !found.containsKey(name)).toList();
        long room = maxTypeNames - rows.count(connection, dialect, group.recordType());
        List<String> allowed = missing.subList(0, (int) Math.max(0, Math.min(room, missing.size())));
        if (!allowed.isEmpty()) {
            found.putAll(rows.claim(connection, dialect, group.space(), group.recordType(), allowed));
        }
        return found;
    }

    @Override
    public void close() {
        closed = true;
        synchronized (starting) {
            threads.forEach(Thread::interrupt);
            for (Thread running : threads) {
                try {
                    running.join(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        failWaiting();
    }

    private void failWaiting() {
        List<Lookup> left = new ArrayList<>();
        waiting.drainTo(left);
        SlottedException closing = new SlottedException("the counters were closed before this name"
                + " was looked up; nothing was recorded");
        left.forEach(lookup -> lookup.answer().completeExceptionally(closing));
    }
}
