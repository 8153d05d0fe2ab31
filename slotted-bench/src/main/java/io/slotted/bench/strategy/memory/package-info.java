/**
 * The strategies with no SQL database behind them, for scale: Redis {@code INCR}, and group
 * commit's hand-off with nothing to write, the ceiling of any synchronous write path of its shape.
 */
package io.slotted.bench.strategy.memory;
