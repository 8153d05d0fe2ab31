package io.slotted.campaign.workload;

import io.slotted.campaign.history.Invocation;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an operation that never answered waits: the first time a client gives up on one, every
 * thread's stack is logged, which names the lock, socket or queue it waits on.
 */
public final class Stalls {
    private static final Logger LOG = LoggerFactory.getLogger(Stalls.class);
    private static final AtomicBoolean REPORTED = new AtomicBoolean();

    private Stalls() {
    }

    static void report(Invocation invocation) {
        if (!REPORTED.compareAndSet(false, true)) {
            return;
        }
        LOG.warn("an operation never answered ({}); the threads now:\n{}", invocation, threadDump());
    }

    /** Every thread's stack. */
    public static String threadDump() {
        StringBuilder dump = new StringBuilder();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (StackTraceElement frame : stack) {
                dump.append("    at ").append(frame).append('\n');
            }
        });
        return dump.toString();
    }
}
