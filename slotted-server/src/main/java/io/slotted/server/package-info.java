/**
 * The runnable Slotted product: the {@code slotted} command line ({@link io.slotted.server.Main})
 * and the HTTP service ({@link io.slotted.server.SlottedServer}) of the contract in
 * {@code shared/API.md}, on Javalin, Jackson, HikariCP, Micrometer and Logback.
 */
package io.slotted.server;
