package io.slotted.bench;

import io.slotted.bench.strategy.EngineCounts;
import io.slotted.bench.strategy.Strategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Runs one cell: a fresh store, N writer threads (platform or virtual) hammering it for the
 * warm-up plus the measured window, then a check that the store holds exactly what the writers
 * were told it holds.
 *
 * <p>Every writer opens its incrementer (its connection) before a common start signal, so setup is
 * never timed, and the clock starts for all writers at once. Increments acknowledged during warm-up
 * are not timed but are counted for the exactness check: the store must hold every acknowledged
 * increment, and no other. A writer that fails counts the error and carries on, as an application
 * would; a cell never aborts the run. A writer or drain that hangs is abandoned after a grace
 * period so the run always ends.
 */
final class CellRunner {
    /** How long past the window a writer or a drain may take before it is given up on. */
    private static final Duration GRACE = Duration.ofSeconds(60);

    private final Duration warmup;
    private final Duration duration;
    private final long seed;
    private final ThreadKind threads;
    private final ThreadFactory threadFactory;
    private int cells;

    /**
     * Creates a runner.
     *
     * @param warmup untimed time before each measured window
     * @param duration each measured window
     * @param seed the seed of the Zipf workload
     * @param threads what the writers run on
     * @throws UnsupportedOperationException if this JVM cannot make such threads
     */
    CellRunner(Duration warmup, Duration duration, long seed, ThreadKind threads) {
        this.warmup = warmup;
        this.duration = duration;
        this.seed = seed;
        this.threads = threads;
        this.threadFactory = threads.factory();
    }

    /**
     * Runs one cell.
     *
     * @return what was measured; failures of the store's setup propagate
     */
    CellResult run(Strategy strategy, Workload workload, int writers, int round) throws Exception {
        String cell = "c" + ++cells;
        try (Strategy.Run run = strategy.open(cell, writers, workload.keySpace())) {
            List<WriterLoop> loops = startWriters(run, workload, writers);
            long[] acknowledged = new long[workload.keySpace()];
            LatencyRecorder latency = new LatencyRecorder();
            long measured = 0;
            long errors = 0;
            String firstError = null;
            for (WriterLoop loop : loops) {
                loop.awaitEnd();
                latency.add(loop.latency);
                measured += loop.measured;
                errors += loop.errors;
                firstError = firstError != null ? firstError : loop.firstError;
                for (int i = 0; i < acknowledged.length; i++) {
                    acknowledged[i] += loop.acknowledged[i];
                }
            }
            long drainStart = System.nanoTime();
            String drainError = drain(run);
            long drainMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - drainStart);
            long[] stored = run.totals();
            EngineCounts engine = run.engineCounts();
            return new CellResult(workload, strategy.name(), writers, threads, round, measured,
                    duration.toNanos() / 1e9, latency, errors + (drainError == null ? 0 : 1),
                    firstError != null ? firstError : drainError, sum(acknowledged), sum(stored),
                    countDifferent(acknowledged, stored), drainMillis, engine);
        }
    }

    private List<WriterLoop> startWriters(Strategy.Run run, Workload workload, int writers)
            throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(writers);
        CountDownLatch go = new CountDownLatch(1);
        List<WriterLoop> loops = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            WriterLoop loop = new WriterLoop(run, workload.recordIds(seed, i), workload.keySpace(),
                    ready, go);
            loops.add(loop);
            loop.thread = threadFactory.newThread(loop);
            loop.thread.setName("bench-writer-" + i);
            loop.thread.start();
        }
        ready.await();
        long start = System.nanoTime();
        for (WriterLoop loop : loops) {
            loop.measureFrom = start + warmup.toNanos();
            loop.deadline = loop.measureFrom + duration.toNanos();
        }
        go.countDown();
        return loops;
    }

    /** Runs the drain on a thread of its own so a hung drain cannot stop the run. */
    private static String drain(Strategy.Run run) throws InterruptedException {
        String[] failure = new String[1];
        Thread drainer = new Thread(() -> {
            try {
                run.drain();
            } catch (Exception e) {
                failure[0] = "drain failed: " + e;
            }
        }, "bench-drain");
        drainer.setDaemon(true);
        drainer.start();
        drainer.join(GRACE.toMillis());
        if (drainer.isAlive()) {
            return "drain did not finish within " + GRACE.toSeconds() + "s";
        }
        return failure[0];
    }

    private static long sum(long[] values) {
        long total = 0;
        for (long value : values) {
            total += value;
        }
        return total;
    }

    private static int countDifferent(long[] expected, long[] actual) {
        int different = 0;
        for (int i = 0; i < expected.length; i++) {
            different += expected[i] == actual[i] ? 0 : 1;
        }
        return different;
    }

    /**
     * One writer thread. The loop is the hot path of the measurement: it records a latency and
     * bumps a per-thread array, nothing shared, so the harness adds no contention of its own.
     */
    private static final class WriterLoop implements Runnable {
        private final Strategy.Run run;
        private final LongSupplier recordIds;
        private final CountDownLatch ready;
        private final CountDownLatch go;
        final long[] acknowledged;
        final LatencyRecorder latency = new LatencyRecorder();
        long measureFrom;
        long deadline;
        long measured;
        long errors;
        String firstError;
        Thread thread;

        WriterLoop(Strategy.Run run, LongSupplier recordIds, int keySpace, CountDownLatch ready,
                CountDownLatch go) {
            this.run = run;
            this.recordIds = recordIds;
            this.acknowledged = new long[keySpace];
            this.ready = ready;
            this.go = go;
        }

        @Override
        public void run() {
            Strategy.Incrementer incrementer;
            try {
                incrementer = run.incrementer();
            } catch (Exception e) {
                failed(e);
                ready.countDown();
                return;
            }
            try (incrementer) {
                ready.countDown();
                go.await();
                loop(incrementer);
            } catch (Exception | Error e) {
                failed(e); // an Error too: a writer that died must not leave a cell looking exact
            }
        }

        /**
         * One call, one latency; every counter the call took is an increment, acknowledged or,
         * if the call fails, not at all.
         */
        private void loop(Strategy.Incrementer incrementer) {
            long[] batch = new long[incrementer.incrementsPerCall()];
            long now = System.nanoTime();
            while (now < deadline && !Thread.currentThread().isInterrupted()) {
                for (int i = 0; i < batch.length; i++) {
                    batch[i] = recordIds.getAsLong();
                }
                try {
                    incrementer.incrementEach(batch);
                    long end = System.nanoTime();
                    for (long recordId : batch) {
                        acknowledged[(int) recordId - 1]++;
                    }
                    if (now >= measureFrom) {
                        latency.record(end - now);
                        measured += batch.length;
                    }
                    now = end;
                } catch (Exception e) {
                    failed(e);
                    now = System.nanoTime();
                }
            }
        }

        private void failed(Throwable e) {
            errors++;
            if (firstError == null) {
                firstError = e.toString();
            }
        }

        /** Waits for the thread; one still running long after its deadline is interrupted. */
        void awaitEnd() throws InterruptedException {
            long waitMillis = TimeUnit.NANOSECONDS.toMillis(
                    Math.max(0, deadline - System.nanoTime())) + GRACE.toMillis();
            thread.join(waitMillis);
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(GRACE.toMillis());
            }
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not stop within "
                        + 2 * GRACE.toSeconds() + "s of its deadline, even when interrupted");
            }
        }
    }
}
