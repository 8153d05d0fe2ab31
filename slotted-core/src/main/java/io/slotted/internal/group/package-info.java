/**
 * Group commit: callers' increments queued, summed per slot and written by flushers in one
 * statement or transaction, each flush exactly once through the flush ledger and the flusher's mark.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.group;
