/**
 * The schema's files in the jar ({@code io/slotted/schema/<database>/}): {@code SchemaScript} reads
 * one, renames its tables for the configured counter table, and gives each table's statements to
 * {@code SchemaMigrator}, the columns and storage parameters to its checks, and the text to
 * {@code slotted schema}.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.dialect.schema;
