/**
 * Readiness: the background probe whose last answer {@code /readyz} gives, checking that the
 * counter table can be read and written without holding a request thread or a connection of the
 * service's pool.
 */
package io.slotted.server.http.health;
