/**
 * The service's meters: one Micrometer registry with the JVM's, the connection pool's and the
 * counters engine's meters, scraped in Prometheus text format. Front ends record their own meters
 * in the same registry; nothing here knows a protocol.
 */
package io.slotted.server.metrics;
