/**
 * The counters' lifecycle beyond writes and reads: setting a counter exactly, recounting a
 * type against a source of truth, shrinking a type onto fewer slots, and keeping time buckets
 * (pruned and folded in the background).
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.admin;
