package io.slotted.server.doctor.locks;

import java.util.List;

/**
 * The latest deadlock a database describes.
 *
 * @param detectedAt when, in the server's time
 * @param statements the statements of the transactions caught in it
 * @param rows the rows they waited for, as {@code table key}
 * @param rolledBack which statement (1-based) was rolled back, 0 when not said
 */
public record DeadlockReport(String detectedAt, List<String> statements, List<String> rows, int rolledBack) {
}
