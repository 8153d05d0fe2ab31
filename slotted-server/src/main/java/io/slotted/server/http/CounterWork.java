package io.slotted.server.http;

import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.store.WriteGate;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Runs the counters' blocking calls off Jetty's request threads, each within a deadline.
 *
 * <p>Jetty's threads serve every endpoint. If counter requests held them while the database is
 * slow or locked, {@code /healthz} and {@code /metrics} would wait behind them. So a counter
 * request hands its work here and gives its thread back (Javalin's {@code ctx.future}): a fixed
 * number of worker threads with a bounded queue run the work, and a request that finds the queue
 * full is answered 503 {@code overloaded} at once, so memory and threads stay bounded however many
 * requests arrive.
 *
 * <p>Every piece of work has a deadline, counted from when it is handed here. When it passes, the
 * client is answered 503 at once, whatever the worker is still waiting for, and the answer says
 * only what is known, by the rule both front ends follow ({@link WriteGate}). Work still queued,
 * or running but not yet at its write, is given up: its {@link Gate} refuses it later, so nothing
 * is written and the answer is {@code timeout}. A write already handed to the library may still
 * land (a group commit waiting out a lock commits when the lock goes), so the answer is
 * {@code outcome_unknown}: retry with the same Idempotency-Key. A read changes nothing and is
 * answered {@code timeout}.
 *
 * <p>Work that never blocks — a plain increment handed to group commit, a read that joins the
 * reads in flight — takes no worker: {@link #startWrite} and {@link #startRead} start it on the
 * calling thread and it completes on whichever thread learns the outcome, so a request waiting
 * for its commit holds no thread at all. Such work counts against the same bound as the workers'
 * (threads plus queue) and keeps the same deadline and the same rule for what a missed deadline
 * may promise.
 *
 * <p>Answers are completed on the response executor (Jetty's own threads), never on the thread that
 * finished the work: the library completes a group commit's futures on its flusher thread, which
 * must go back to flushing rather than write HTTP responses.
 */
final class CounterWork implements AutoCloseable {
    private static final long CLOSE_WAIT_SECONDS = 5;

    private final ThreadPoolExecutor workers;
    /** Work in flight without a thread, at most as much as the workers and their queue hold. */
    private final Semaphore started;
    private final int startedLimit;
    private final Executor responses;
    private final Duration deadline;

    /**
     * Starts the worker threads.
     *
     * @param deadline how long each piece of work may take, the service's request deadline
     * @param settings the number of workers and the room in their queue
     * @param responses where answers are completed: Jetty's thread pool
     */
    CounterWork(Duration deadline, HttpSettings settings, Executor responses) {
        this.workers = new ThreadPoolExecutor(settings.workerThreads(), settings.workerThreads(), 0,
                TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(settings.workerQueue()),
                daemonThreads());
        this.startedLimit = settings.workerThreads() + settings.workerQueue();
        this.started = new Semaphore(startedLimit);
        this.responses = responses;
        this.deadline = deadline;
    }

    /** Where work stops if it was given up: called just before the library is asked to write. */
    @FunctionalInterface
    interface Gate {
        /**
         * Lets the work write, or stops it.
         *
         * @throws java.util.concurrent.CancellationException if the deadline has passed and the
         *     request was answered; the work must write nothing
         */
        void enter();
    }

    /** Work that writes: it calls {@link Gate#enter()} right before the library's write. */
    @FunctionalInterface
    interface Write<T> {
        CompletableFuture<T> start(Gate gate) throws Exception;
    }

    /**
     * Runs a write.
     *
     * @param write the write, which may block until it starts and complete its future later
     * @return its result, or a failure: the write's own, or an {@link HttpError} if there was no
     *     room or the deadline passed
     */
    <T> CompletableFuture<T> write(Write<T> write) {
        return submit(new Task<>(write));
    }

    /**
     * Runs a read that blocks, on a worker.
     *
     * @param read the read
     * @return its result, or a failure: the read's own, or an {@link HttpError} if there was no room
     *     or the deadline passed
     */
    <T> CompletableFuture<T> read(Supplier<T> read) {
        return submit(new Task<T>(gate -> CompletableFuture.completedFuture(read.get())));
    }

    /**
     * Starts a read that does not block, on the calling thread.
     *
     * @param read starts the read and gives its future
     * @return its result, or a failure: the read's own, or an {@link HttpError} if there was no room
     *     or the deadline passed
     */
    <T> CompletableFuture<T> startRead(Supplier<CompletableFuture<T>> read) {
        return start(new Task<T>(gate -> read.get()));
    }

    /**
     * Starts a write that does not block, on the calling thread.
     *
     * @param write starts the write, calling the gate right before it hands the write to the
     *     library, and gives its future
     * @return its result, or a failure: the write's own, or an {@link HttpError} if there was no
     *     room or the deadline passed
     */
    <T> CompletableFuture<T> startWrite(Write<T> write) {
        return start(new Task<>(write));
    }

    private <T> CompletableFuture<T> submit(Task<T> task) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(overloaded());
        }
        return answer(task);
    }

    private <T> CompletableFuture<T> start(Task<T> task) {
        if (!started.tryAcquire()) {
            return CompletableFuture.failedFuture(overloaded());
        }
        task.result.whenComplete((value, failure) -> started.release());
        task.run();
        return answer(task);
    }

    private HttpError overloaded() {
        return new HttpError(ErrorCode.OVERLOADED, "the server is at its limit for counter work"
                + " (running=" + workers.getActiveCount() + ", waiting=" + workers.getQueue().size()
                + ", in flight without a thread=" + (startedLimit - started.availablePermits())
                + "), so nothing was applied: retry later");
    }

    private <T> CompletableFuture<T> answer(Task<T> task) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        task.result.orTimeout(deadline.toNanos(), TimeUnit.NANOSECONDS)
                .whenCompleteAsync((value, failure) -> {
                    if (failure == null) {
                        answer.complete(value);
                    } else {
                        answer.completeExceptionally(task.explain(HttpError.unwrap(failure)));
                    }
                }, responses);
        return answer;
    }

    /** Stops taking work and gives the workers a few seconds to finish, then interrupts them. */
    @Override
    public void close() {
        workers.shutdown();
        try {
            if (!workers.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                workers.shutdownNow();
            }
        } catch (InterruptedException e) {
            workers.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "slotted-http-worker-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One piece of work, its gate and its result. */
    private final class Task<T> implements Runnable, Gate {
        private final WriteGate gate = new WriteGate();
        private final CompletableFuture<T> result = new CompletableFuture<>();
        private final Write<T> work;

        Task(Write<T> work) {
            this.work = work;
        }

        @Override
        public void run() {
            if (gate.givenUp()) {
                return;
            }
            try {
                work.start(this).whenComplete((value, failure) -> {
                    if (failure == null) {
                        result.complete(value);
                    } else {
                        result.completeExceptionally(failure);
                    }
                });
            } catch (Exception e) {
                result.completeExceptionally(e);
            }
        }

        @Override
        public void enter() {
            gate.enter();
        }

        /** The failure to answer with; a missed deadline gives the work up unless it is writing. */
        Throwable explain(Throwable failure) {
            if (!(failure instanceof TimeoutException)) {
                return failure;
            }
            String late = "the request did not finish within " + deadline.toMillis() + "ms (the"
                    + " database is slow, locked or unreachable)";
            if (gate.giveUp()) {
                return new HttpError(ErrorCode.OUTCOME_UNKNOWN, late + " and its write may still be"
                        + " applied: retry with the same Idempotency-Key, which applies it at most"
                        + " once");
            }
            return new HttpError(ErrorCode.TIMEOUT, late + " and was given up; nothing was"
                    + " applied: retry later");
        }
    }
}
