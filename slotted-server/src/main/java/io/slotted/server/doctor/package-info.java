/**
 * {@code slotted doctor}: samples a database's row-lock waits over a window and names the hot rows,
 * with the waiting statements and what to do, then checks Slotted's own tables and the settings
 * that decide whether an acknowledged increment survives a crash.
 */
package io.slotted.server.doctor;
