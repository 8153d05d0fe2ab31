/**
 * The counters on a real database: {@link io.slotted.server.store.PooledCounters} (a HikariCP pool
 * and the {@link io.slotted.SlottedCounters} writing through it), the overflow check on a counter's
 * total that the front ends run before writing, the gate that decides what a front end may promise
 * when a write misses its deadline ({@link io.slotted.server.store.WriteGate}), and the one-line
 * wording of database failures.
 * It knows the settings ({@code config}) and nothing of any front end.
 */
package io.slotted.server.store;
