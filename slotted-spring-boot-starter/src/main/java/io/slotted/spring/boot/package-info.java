/**
 * Slotted for Spring Boot: {@link io.slotted.spring.boot.SlottedAutoConfiguration} makes a
 * {@link io.slotted.SlottedCounters} bean from the application's data source and the
 * {@code slotted.*} properties ({@link io.slotted.spring.boot.SlottedProperties}); beside it, the
 * counters' Micrometer meters and the {@code slotted} health indicator. Applications use the
 * {@code SlottedCounters} bean; nothing else here is meant to be called.
 */
package io.slotted.spring.boot;
