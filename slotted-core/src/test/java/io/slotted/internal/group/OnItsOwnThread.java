package io.slotted.internal.group;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Work a test starts on a thread of its own, so that it can wait until the thread blocks where
 * the test means it to, and then get the work's result or failure. A wait that never ends fails
 * the test after a minute instead of hanging the build.
 */
final class OnItsOwnThread<T> {
    private final Thread thread;
    private final FutureTask<T> result;

    private OnItsOwnThread(Callable<T> work) {
        this.result = new FutureTask<>(work);
        this.thread = new Thread(result, "test-worker");
        thread.setDaemon(true);
    }

    static <T> OnItsOwnThread<T> start(Callable<T> work) {
        OnItsOwnThread<T> started = new OnItsOwnThread<>(work);
        started.thread.start();
        return started;
    }

    /** Waits until the thread is parked on an object that {@code blocker} accepts. */
    void awaitParkedOn(Predicate<Object> blocker) {
        await().atMost(Duration.ofMinutes(1)).until(() -> {
            Object on = LockSupport.getBlocker(thread);
            return on != null && blocker.test(on);
        });
    }

    /** Waits until the thread waits without a time limit, as on a lock. */
    void awaitWaiting() {
        await().atMost(Duration.ofMinutes(1)).until(() -> thread.getState() == Thread.State.WAITING);
    }

    void interrupt() {
        thread.interrupt();
    }

    boolean isDone() {
        return result.isDone();
    }

    /** The work's result; its exception as the cause of an {@code ExecutionException}. */
    T get() throws Exception {
        return result.get(1, TimeUnit.MINUTES);
    }
}
