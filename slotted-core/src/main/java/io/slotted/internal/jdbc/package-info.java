/**
 * JDBC and retries: the data source, table and dialect ({@code Database}), the one rule for
 * what is retried, backoff, and the translation of {@code SQLException} into the public exceptions.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.jdbc;
