/**
 * The commands of the schema: {@code migrate}, which creates or checks it, and {@code schema}, which
 * prints the DDL {@code migrate} runs, on the option groups of {@link io.slotted.server.cli}.
 */
package io.slotted.server.cli.schema;
