/**
 * How the doctor sees row locks: a {@link io.slotted.server.doctor.locks.LockWindow} per database
 * samples the sessions waiting for a row lock and counts the window's deadlocks,
 * {@link io.slotted.server.doctor.locks.HotRows} adds the samples up row by row, and
 * {@link io.slotted.server.doctor.locks.Statements} reads the waiting statements.
 */
package io.slotted.server.doctor.locks;
