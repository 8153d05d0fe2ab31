package io.slotted.bench.strategy.memory;

import io.slotted.bench.strategy.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * One cell of {@link HandOffCeiling}: the queue and its consumer threads. It copies the engine's
 * hand-off (slotted-core's {@code FlushQueue} and {@code Pending}, whose classes are internal) with
 * the SQL left out: a caller pushes its increment onto a lock-free stack, wakes an idle consumer if
 * the stack was empty, and parks; a consumer swaps the whole stack out, counts it, and unparks each
 * caller. An idle consumer parks for at most {@value #IDLE_PARK_MILLIS} ms before looking at the
 * stop flag again; once stopping, it takes what is still queued without waiting and ends.
 *
 * <p>Each consumer keeps totals of its own, so consumers share nothing but the stack, as the
 * engine's flushers share nothing but theirs; the totals are read only after the consumers have
 * been joined, which makes their writes visible.
 */
final class HandOffRun implements Strategy.Run {
    /** As the engine's default queue capacity. */
    static final int QUEUE_CAPACITY = 100_000;
    /** As the engine's idle flusher: how long it parks before looking at the stop flag. */
    private static final long IDLE_PARK_MILLIS = 50;

    private final AtomicReference<Pending> newest = new AtomicReference<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Queue<Thread> idleConsumers = new ConcurrentLinkedQueue<>();
    private final List<BatchConsumer> consumers = new ArrayList<>();
    private volatile boolean stopping;

    /** One increment waiting for a consumer: the counter's index and its caller. */
    private static final class Pending {
        final int index;
        final Thread caller = Thread.currentThread();
        volatile int outcome; // 0 waiting, 1 counted, 2 refused
        Pending next;

        Pending(int index) {
            this.index = index;
        }

        void settle(int how) {
            outcome = how;
            LockSupport.unpark(caller);
        }
    }

    HandOffRun(int keySpace, int consumerCount) {
        for (int i = 0; i < consumerCount; i++) {
            BatchConsumer consumer = new BatchConsumer(keySpace, "ceiling-consumer-" + i);
            consumers.add(consumer);
            consumer.thread.start();
        }
    }

    @Override
    public Strategy.Incrementer incrementer() {
        return this::increment;
    }

    /** Push, wake a consumer if it may be asleep, then park until counted. */
    private void increment(long recordId) {
        if (size.incrementAndGet() > QUEUE_CAPACITY) {
            size.decrementAndGet();
            throw new IllegalStateException("hand-off queue full: " + QUEUE_CAPACITY
                    + " places taken; the consumers have stopped or fallen behind");
        }
        Pending pending = new Pending((int) recordId - 1);
        Pending older;
        do {
            older = newest.get();
            pending.next = older;
        } while (!newest.compareAndSet(older, pending));
        if (older == null) {
            Thread idle = idleConsumers.poll();
            if (idle != null) {
                LockSupport.unpark(idle);
            }
        }
        while (pending.outcome == 0) {
            LockSupport.park(this);
        }
        if (pending.outcome != 1) {
            throw new IllegalStateException("the ceiling's consumers had stopped; the increment was"
                    + " not counted");
        }
    }

    /** Stops the consumers once they have taken everything queued. */
    @Override
    public void drain() throws InterruptedException {
        stopping = true;
        for (BatchConsumer consumer : consumers) {
            LockSupport.unpark(consumer.thread);
            consumer.thread.join();
        }
        // A writer abandoned by the harness may still push after the consumers stopped.
        for (Pending p = takeAll(); p != null; p = p.next) {
            p.settle(2);
        }
    }

    /** Drains first if the harness has not: totals are read only from consumers that have ended. */
    @Override
    public long[] totals() throws InterruptedException {
        drain();
        long[] totals = new long[consumers.get(0).totals.length];
        for (BatchConsumer consumer : consumers) {
            for (int i = 0; i < totals.length; i++) {
                totals[i] += consumer.totals[i];
            }
        }
        return totals;
    }

    @Override
    public void close() {
        stopping = true;
        consumers.forEach(consumer -> LockSupport.unpark(consumer.thread));
    }

    /** The whole stack, newest first, or null. */
    private Pending takeAll() {
        Pending taken = newest.getAndSet(null);
        int count = 0;
        for (Pending p = taken; p != null; p = p.next) {
            count++;
        }
        size.addAndGet(-count);
        return taken;
    }

    /** One consumer thread and the totals only it writes. */
    private final class BatchConsumer implements Runnable {
        final long[] totals;
        final Thread thread;

        BatchConsumer(int keySpace, String name) {
            this.totals = new long[keySpace];
            this.thread = new Thread(this, name);
            thread.setDaemon(true);
        }

        /** The hot path: take the stack, count it, release its callers. */
        @Override
        public void run() {
            while (true) {
                boolean stop = stopping;
                Pending batch = stop ? takeAll() : takeOrPark();
                if (batch == null) {
                    if (stop) {
                        return;
                    }
                    continue;
                }
                for (Pending p = batch; p != null; p = p.next) {
                    totals[p.index]++;
                }
                for (Pending p = batch; p != null; ) {
                    Pending next = p.next;
                    p.settle(1);
                    p = next;
                }
            }
        }

        /** The stack, or, if it is empty, what arrives within the idle park; null if nothing. */
        private Pending takeOrPark() {
            Pending batch = takeAll();
            if (batch != null) {
                return batch;
            }
            idleConsumers.add(thread);
            try {
                batch = takeAll();
                if (batch == null) {
                    LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(IDLE_PARK_MILLIS));
                    batch = takeAll();
                }
                return batch;
            } finally {
                idleConsumers.remove(thread);
            }
        }
    }
}
