/**
 * Slotted's public API: {@link io.slotted.SlottedCounters}, the counters an application holds, made
 * by {@link io.slotted.SlottedCountersBuilder} from a {@code DataSource} and described by an
 * immutable {@link io.slotted.SlottedConfig}; {@link io.slotted.CounterNames} for string keys;
 * {@link io.slotted.Ticker}; and the exceptions under {@link io.slotted.SlottedException}. This
 * package is the only supported API of the {@code io.slotted} module; {@code io.slotted.internal}
 * and its subpackages are not.
 */
package io.slotted;
