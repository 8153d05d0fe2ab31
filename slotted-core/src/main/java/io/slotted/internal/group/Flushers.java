package io.slotted.internal.group;

import io.slotted.SlottedConfig;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.write.StatsRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The flusher threads of a queued write mode. Each runs the mode's loop with a {@link FlushWriter}
 * of its own — its own connection, ledger row and slots — so flushers never wait on each other
 * (in {@code GROUPED} mode callers write through the same writers, taking turns with the threads:
 * {@link FlushTurns}).
 * Each loop borrows its writer's connection as it starts, when the counters are built, and keeps it
 * until they close, so that a flush never waits for a connection that its callers hold.
 * Closing asks the loops to finish and waits until they have written what was accepted.
 */
final class Flushers {
    /** One write mode's flusher loop: it returns once closing and nothing is left to write. */
    @FunctionalInterface
    interface Loop {
        void run(FlushWriter writer);
    }

    private final List<Thread> threads = new ArrayList<>();
    private final List<FlushWriter> writers = new ArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    /** Prepares the threads; {@link #start()} starts them once their owner is fully built. */
    Flushers(Database database, SlottedConfig config, IdempotencyKeys keys, TypeRegistry registry,
            CounterReader reader, StatsRecorder stats, Loop loop) {
        // Ledger rows are per flusher and per instance: two processes never share one.
        String instance = UUID.randomUUID().toString();
        for (int i = 0; i < config.flushers(); i++) {
            FlushWriter writer = new FlushWriter(database, config, i, instance + "-" + i, keys, registry, reader,
                    stats);
            writers.add(writer);
            Thread thread = new Thread(() -> loop.run(writer), "slotted-flusher-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
    }

    /** One writer per flusher thread, in the threads' order. */
    List<FlushWriter> writers() {
        return List.copyOf(writers);
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** Whether {@link #close()} has been called. */
    boolean closing() {
        return closing.getCount() == 0;
    }

    /**
     * Waits up to {@code interval}, less if closing starts meanwhile.
     *
     * @return true when closing (or interrupted, which is taken as closing)
     */
    boolean awaitClosing(Duration interval) {
        try {
            return closing.await(interval.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** Asks the loops to finish and waits for every one, even if interrupted meanwhile. */
    void close() {
        closing.countDown();
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (thread.isAlive()) {
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
