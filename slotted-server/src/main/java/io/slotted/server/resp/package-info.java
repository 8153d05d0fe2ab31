/**
 * The Redis-protocol front end: RESP2 over TCP on Netty, so that any Redis client counts durably
 * in the SQL database ({@code INCR downloads:456}). The commands and their errors are those of
 * {@code docs/api.md}, "The Redis protocol".
 */
package io.slotted.server.resp;
