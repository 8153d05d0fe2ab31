/**
 * Bugs planted on purpose, off unless a test turns one on: the fault campaign proves that it finds
 * a double count, a lost increment or an oversell by finding these.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only.
 */
package io.slotted.internal.mutation;
