package io.slotted.internal.background;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A task run in the background on a daemon thread of its own, with a fixed delay between runs,
 * until closed. Closing lets a run under way finish, for up to 30 s, before interrupting it.
 */
public final class Periodic implements AutoCloseable {
    private static final long CLOSE_WAIT_SECONDS = 30;

    private final ScheduledExecutorService executor;

    private Periodic(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    /**
     * Starts running a task.
     *
     * @param threadName the thread's name, for thread dumps
     * @param delayMillis the delay before the first run and between runs
     * @param task what to run; a run that throws does not stop later runs only if the task catches
     *     its own failures, so tasks catch them
     * @return the running task
     */
    public static Periodic start(String threadName, long delayMillis, Runnable task) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(task, delayMillis, delayMillis, TimeUnit.MILLISECONDS);
        return new Periodic(executor);
    }

    /** Stops the runs, letting one under way finish. */
    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
