/**
 * What a flush writer commits with, from one flush to the next: the connection it holds
 * ({@link io.slotted.internal.group.commit.HeldConnection}), its ledger row and mark, by which a
 * commit cut off on the wire is learned ({@link io.slotted.internal.group.commit.FlushLedger}),
 * and the attempts that retry a flush until it is known to have landed once
 * ({@link io.slotted.internal.group.commit.FlushAttempts}).
 *
 * <p><b>Not a supported API.</b> Everything under {@code io.slotted.internal} is the engine's own and may
 * change in any release without notice; applications use {@code io.slotted} only.
 */
package io.slotted.internal.group.commit;
