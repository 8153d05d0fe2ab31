/**
 * The write paths' shared parts — how a slot is picked, a transaction's sums, how rows are
 * upserted — and {@code DIRECT} mode.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.write;
