/**
 * What the service and the commands run with: the address and port, the database, the counter
 * table and write mode, the names of counter types. Settings check their values when made and
 * throw {@link java.lang.IllegalArgumentException} naming the setting and the bad value; they know
 * nothing of command-line flags, HTTP statuses or exit codes, which the front ends map them to.
 *
 * <p>The lowest layer of the server: it imports none of the other server packages.
 */
package io.slotted.server.config;
