/**
 * How the calls that walk a whole table report their steps to a {@link io.slotted.Progress} and
 * stop where it asks them to.
 */
package io.slotted.internal.progress;
