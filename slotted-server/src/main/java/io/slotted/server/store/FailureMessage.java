package io.slotted.server.store;

import io.slotted.LimitExceededException;
import io.slotted.QuotaExceededException;
import io.slotted.server.config.DatabaseSettings;
import java.time.Duration;
import java.time.Instant;

/**
 * One line that explains a failure to a person: the failure's own message, and the root cause's
 * when it adds something, such as the driver's "Connection refused" under a pool's "could not get
 * a connection". Passwords that a driver quotes from the URL it was given are masked.
 */
public final class FailureMessage {
    private FailureMessage() {
    }

    /**
     * The failure's message, followed by its root cause's when that says something more.
     *
     * @param e the failure
     * @return one line
     */
    public static String of(Throwable e) {
        String own = own(e);
        String root = rootMessage(e);
        return own.contains(root) ? own : own + " (caused by: " + root + ")";
    }

    /**
     * What a refusal by a type's limits says to a client, in the client's terms: the amount, the
     * total it was decided against, and the limits.
     *
     * @param refused what the library threw
     * @return the message
     */
    public static String ofRefusal(LimitExceededException refused) {
        if (refused.refusedASet() && refused.limits().windowed()) {
            return "limit exceeded: cannot set a counter whose type has limits per window (" + refused.limits()
                    + "): its count is what increments added in the current window; nothing was changed";
        }
        if (refused.refusedASet()) {
            return "limit exceeded: cannot set the counter to " + refused.total() + ", outside its type's limits "
                    + refused.limits() + "; nothing was changed";
        }
        if (refused instanceof QuotaExceededException quota) {
            return "quota exceeded: adding " + refused.delta() + " would take the counter's count " + refused.total()
                    + " in the window from " + quota.windowStart() + " outside its type's limits " + refused.limits()
                    + "; nothing was applied; the window resets at " + quota.resetsAt() + " (in "
                    + Math.max(1, (Duration.between(Instant.now(), quota.resetsAt()).toMillis() + 999) / 1000) + " s)";
        }
        return "limit exceeded: adding " + refused.delta() + " would take the counter's total " + refused.total()
                + " outside its type's limits " + refused.limits() + "; nothing was applied";
    }

    /**
     * The message of the innermost cause, which usually names what was really wrong.
     *
     * @param e the failure
     * @return one line
     */
    public static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return own(root);
    }

    /**
     * The failure's own message, or its class's name when it has none.
     *
     * @param e the failure
     * @return one line
     */
    public static String own(Throwable e) {
        String message = e.getMessage();
        String text = message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
        return DatabaseSettings.maskCredentials(text.strip().replaceAll("\\s*[\\r\\n]+\\s*", " "));
    }
}
