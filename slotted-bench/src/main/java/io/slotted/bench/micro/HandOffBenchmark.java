package io.slotted.bench.micro;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one increment costs inside the JVM before any SQL: the hand-off from a caller to the
 * group-commit flushers, as slotted-core did it up to its lock-free stack (a locked queue and a
 * future per increment). If this were not small next to a durable commit (hundreds of
 * microseconds at least), group commit could not pay. The engine's current hand-off, a lock-free
 * stack and a park per caller, is measured against the database strategies by the harness's
 * {@code ceiling} strategy.
 *
 * <p>The engine's classes are internal, so the pattern is copied, not called: a caller offers a
 * {@code Pending(key, delta, future)} to a bounded {@link ArrayBlockingQueue}; two flusher threads
 * (the engine's default) each take the first waiting increment with a timed {@code poll}, drain up
 * to 20,000 more with {@code drainTo}, sum them per counter in a {@link TreeMap} (as
 * {@code Flush} does, in counter order), and complete the callers' futures. No database is
 * touched, so the flushers run flat out; in the engine a flush would also wait for its commit.
 * <ul>
 *   <li>{@code grouped}: the caller waits for its future, as {@code add} does in {@code GROUPED}
 *       mode: the round trip through the queue and a flusher.</li>
 *   <li>{@code buffered}: the caller only enqueues, as in {@code BUFFERED} mode.</li>
 * </ul>
 * {@code keys} is 1 for one hot counter and 100,000 for many, which makes the per-counter sums
 * costlier.
 *
 * <p>Run it from the shaded jar (JMH's own main; the harness's main is the jar's default):
 * <pre>{@code
 * ./slotted --help        # builds the jars when they are missing
 * java -cp slotted-bench/target/slotted-bench.jar org.openjdk.jmh.Main HandOffBenchmark
 * java -cp slotted-bench/target/slotted-bench.jar org.openjdk.jmh.Main HandOffBenchmark -t 16
 * }</pre>
 * {@code -t} sets the number of callers (default 4 here). It is compiled by the build but never
 * run by it, so it costs CI nothing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@Threads(4)
public class HandOffBenchmark {
    /** As {@code GroupCommitter.MAX_FLUSH}: the most increments one flush takes. */
    private static final int MAX_FLUSH = 20_000;
    /** As the engine's default queue capacity. */
    private static final int QUEUE_CAPACITY = 100_000;
    /** As the engine's default flusher count. */
    private static final int FLUSHERS = 2;
    private static final long IDLE_POLL_MILLIS = 50;

    /** Counters the callers spread over: one hot counter, or many. */
    @Param({"1", "100000"})
    public int keys;

    private ArrayBlockingQueue<Pending> queue;
    private final List<Thread> flushers = new ArrayList<>();
    private volatile boolean running;
    /** Where each flush's sums go, so the JIT cannot drop the summing as dead code. */
    private volatile TreeMap<Key, Long> lastSums;

    /** A counter, ordered as the engine orders rows: by type, then id. */
    record Key(int recordType, long recordId) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            int byType = Integer.compare(recordType, other.recordType);
            return byType != 0 ? byType : Long.compare(recordId, other.recordId);
        }
    }

    /** One accepted increment; {@code done} is null when nobody waits. */
    record Pending(Key key, long delta, CompletableFuture<Void> done) {
    }

    /** Starts the flushers. */
    @Setup(Level.Trial)
    public void startFlushers() {
        queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
        running = true;
        for (int i = 0; i < FLUSHERS; i++) {
            Thread flusher = new Thread(this::flushLoop, "hand-off-flusher-" + i);
            flusher.setDaemon(true);
            flushers.add(flusher);
            flusher.start();
        }
    }

    /**
     * Stops the flushers.
     *
     * @throws InterruptedException if interrupted while waiting for them
     */
    @TearDown(Level.Trial)
    public void stopFlushers() throws InterruptedException {
        running = false;
        for (Thread flusher : flushers) {
            flusher.join();
        }
        flushers.clear();
    }

    /**
     * A {@code GROUPED} caller: enqueue, then wait until a flusher completes the future.
     *
     * @throws Exception if the queue stays full for a second or the wait is interrupted
     */
    @Benchmark
    public void grouped() throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        offer(new Pending(nextKey(), 1, done));
        done.get();
    }

    /**
     * A {@code BUFFERED} caller: enqueue and return.
     *
     * @throws InterruptedException if interrupted while the queue is full
     */
    @Benchmark
    public void buffered() throws InterruptedException {
        offer(new Pending(nextKey(), 1, null));
    }

    private Key nextKey() {
        return new Key(1, keys == 1 ? 1 : 1 + ThreadLocalRandom.current().nextInt(keys));
    }

    private void offer(Pending pending) throws InterruptedException {
        if (!queue.offer(pending, 1, TimeUnit.SECONDS)) {
            throw new IllegalStateException("queue full for a second: the flushers are stuck");
        }
    }

    /** The flusher loop of {@code GroupCommitter.runFlusher}, with the SQL left out. */
    private void flushLoop() {
        List<Pending> batch = new ArrayList<>();
        while (running) {
            Pending first;
            try {
                first = queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (first == null) {
                continue;
            }
            batch.add(first);
            queue.drainTo(batch, MAX_FLUSH - 1);
            TreeMap<Key, Long> sums = new TreeMap<>();
            for (Pending pending : batch) {
                sums.merge(pending.key(), pending.delta(), Long::sum);
            }
            lastSums = sums;
            for (Pending pending : batch) {
                if (pending.done() != null) {
                    pending.done().complete(null);
                }
            }
            batch.clear();
        }
    }
}
