/**
 * Every SQL statement the engine sends, and what an error code means, per database: {@code
 * Dialect} with one subclass per database, which hands out the statements of each concern
 * ({@code statements}). The database is identified here, once per data source ({@code Dialects}).
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.dialect;
