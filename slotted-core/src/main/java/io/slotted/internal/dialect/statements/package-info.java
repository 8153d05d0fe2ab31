/**
 * The statements of each concern outside the flush's own upserts — the flush ledger, the type
 * registry, slot rows, time bucket rows, idempotency keys, owner columns — in standard SQL that
 * every supported database takes. {@code Dialect} hands them out; a database whose text differs
 * returns a subclass from its dialect.
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only, which is
 * what the jar's {@code Automatic-Module-Name} ({@code io.slotted}) stands for.
 */
package io.slotted.internal.dialect.statements;
