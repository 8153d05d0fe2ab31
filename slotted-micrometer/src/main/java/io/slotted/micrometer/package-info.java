/**
 * Micrometer meters for Slotted: {@link io.slotted.micrometer.SlottedMetrics} binds a counters
 * instance's statistics to any {@code MeterRegistry}. A module of its own so that the core library
 * stays free of Micrometer; the service's {@code /metrics} and the Spring Boot starter both use it.
 */
package io.slotted.micrometer;
