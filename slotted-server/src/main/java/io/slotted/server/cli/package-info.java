/**
 * The {@code slotted} command line on picocli: one class per command, the option groups they
 * share as mixins, and in {@link io.slotted.server.cli.SlottedCommand} the one mapping of failures
 * to exit statuses. The only layer that knows flags and exit statuses; it may use every other
 * package.
 */
package io.slotted.server.cli;
