/**
 * The strategies that count in the SQL database without Slotted, as applications do today: a
 * single-row {@code UPDATE … SET count = count + 1}, multi-row upserts (the database's own limit),
 * and bucket4j's JDBC rate limiter, a locked row per decision.
 */
package io.slotted.bench.strategy.plain;
