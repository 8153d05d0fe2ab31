package io.slotted.server.store;

import io.slotted.CounterOverflowException;
import io.slotted.SlottedCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers reads of single counters that arrive together with one query per counter type, without
 * holding a thread per read.
 *
 * <p>A front end asks for one counter's total and gets a future. The request joins a queue; at
 * most {@link #MAX_QUERIES} reader threads take everything queued, group it by type, read each
 * type's counters with one {@link SlottedCounters#getAll} and complete the futures. Requests that
 * arrive while a query runs wait for the next one, which a reader starts as soon as it is free: under
 * load each query answers as many reads as arrived during the last one, so the database sees one
 * query per few milliseconds instead of one per read.
 *
 * <p>Exact: a request is taken from the queue before its query starts, so the query sees every
 * increment committed before the request was made, which is every increment acknowledged before
 * it. Memory is bounded by the reads in flight, which each front end bounds. If a batch fails to
 * read because one of its counters is out of range, the others are read one by one, so one bad
 * counter fails only its own readers.
 */
public final class CoalescedReads implements AutoCloseable {
    /** Queries run at once; more would only queue on the pool's connections. */
    static final int MAX_QUERIES = 4;
    /** Counters of one type read by one query; more are read by the next. */
    static final int MAX_IDS_PER_QUERY = 1000;

    private final SlottedCounters counters;
    private final ExecutorService readers;
    private final ConcurrentLinkedQueue<Request> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger running = new AtomicInteger();

    /**
     * Starts the readers.
     *
     * @param counters where totals are read
     */
    public CoalescedReads(SlottedCounters counters) {
        this.counters = counters;
        AtomicInteger threads = new AtomicInteger();
        this.readers = Executors.newFixedThreadPool(MAX_QUERIES, runnable -> {
            Thread thread = new Thread(runnable, "slotted-reader-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Reads one counter's total, together with the other reads waiting at the time.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @return the total, read after this call; or the failure of the read, such as
     *     {@link io.slotted.DatabaseUnavailableException} or {@link CounterOverflowException}
     */
    public CompletableFuture<Long> read(int recordType, long recordId) {
        Request request = new Request(recordType, recordId, new CompletableFuture<>());
        queue.add(request);
        startReaderIfIdle();
        return request.total;
    }

    /**
     * Reads many counters of one type, together with the other reads waiting at the time.
     *
     * @param recordType what is counted
     * @param recordIds whose counts to read
     * @return every id mapped to its total, in the order given
     */
    public CompletableFuture<Map<Long, Long>> readAll(int recordType, List<Long> recordIds) {
        List<CompletableFuture<Long>> totals = new ArrayList<>(recordIds.size());
        for (long id : recordIds) {
            totals.add(read(recordType, id));
        }
        return CompletableFuture.allOf(totals.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<Long, Long> counts = new LinkedHashMap<>();
            for (int i = 0; i < recordIds.size(); i++) {
                counts.put(recordIds.get(i), totals.get(i).join());
            }
            return counts;
        });
    }

    /** Starts a reader unless {@link #MAX_QUERIES} are running; a running one takes the request. */
    private void startReaderIfIdle() {
        if (!claimReader()) {
            return;
        }
        try {
            readers.execute(this::readWhileQueued);
        } catch (RejectedExecutionException e) {
            running.decrementAndGet();
            failQueued(new IllegalStateException("the service is stopping", e));
        }
    }

    private boolean claimReader() {
        for (int now = running.get(); now < MAX_QUERIES; now = running.get()) {
            if (running.compareAndSet(now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A reader's loop: answer everything queued, then stop. The queue is checked once more after
     * the reader counts itself out, since a request may have arrived just before that and found
     * every reader busy.
     */
    private void readWhileQueued() {
        do {
            while (!queue.isEmpty()) {
                answer(takeQueued());
            }
            running.decrementAndGet();
        } while (!queue.isEmpty() && claimReader());
    }

    /** Everything queued now, by type, up to a query's worth per type. */
    private Map<Integer, Map<Long, List<CompletableFuture<Long>>>> takeQueued() {
        Map<Integer, Map<Long, List<CompletableFuture<Long>>>> byType = new HashMap<>();
        int taken = 0;
        Request request;
        while (taken < MAX_IDS_PER_QUERY * MAX_QUERIES && (request = queue.poll()) != null) {
            byType.computeIfAbsent(request.recordType, type -> new LinkedHashMap<>())
                    .computeIfAbsent(request.recordId, id -> new ArrayList<>(1))
                    .add(request.total);
            taken++;
        }
        return byType;
    }

    private void answer(Map<Integer, Map<Long, List<CompletableFuture<Long>>>> byType) {
        byType.forEach((type, waiting) -> {
            List<Long> ids = new ArrayList<>(waiting.keySet());
            for (int from = 0; from < ids.size(); from += MAX_IDS_PER_QUERY) {
                answer(type, ids.subList(from, Math.min(ids.size(), from + MAX_IDS_PER_QUERY)), waiting);
            }
        });
    }

    private void answer(int type, List<Long> ids, Map<Long, List<CompletableFuture<Long>>> waiting) {
        Map<Long, Long> totals;
        try {
            totals = counters.getAll(type, ids);
        } catch (CounterOverflowException e) {
            ids.forEach(id -> answerOne(type, id, waiting.get(id)));
            return;
        } catch (RuntimeException e) {
            ids.forEach(id -> waiting.get(id).forEach(total -> total.completeExceptionally(e)));
            return;
        }
        ids.forEach(id -> waiting.get(id).forEach(total -> total.complete(totals.get(id))));
    }

    private void answerOne(int type, long id, List<CompletableFuture<Long>> waiting) {
        try {
            long total = counters.get(type, id);
            waiting.forEach(future -> future.complete(total));
        } catch (RuntimeException e) {
            waiting.forEach(future -> future.completeExceptionally(e));
        }
    }

    private void failQueued(RuntimeException failure) {
        Request request;
        while ((request = queue.poll()) != null) {
            request.total.completeExceptionally(failure);
        }
    }

    /** Stops the readers once they have answered what is queued. */
    @Override
    public void close() {
        readers.shutdown();
        try {
            if (!readers.awaitTermination(5, TimeUnit.SECONDS)) {
                readers.shutdownNow();
            }
        } catch (InterruptedException e) {
            readers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        failQueued(new IllegalStateException("the service stopped before the read was made"));
    }

    private record Request(int recordType, long recordId, CompletableFuture<Long> total) {
    }
}
