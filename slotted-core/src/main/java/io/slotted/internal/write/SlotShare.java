package io.slotted.internal.write;

import io.slotted.internal.dialect.ClusterNode;
import java.util.Optional;

/**
 * The slots one group-commit flusher writes: share {@code share} of {@code shares}, each share
 * the slots {@code s} with {@code s % shares == share} ({@link SlotPicker#pickOwned}).
 *
 * <p>With {@code F} flushers in a process, flusher {@code f} owns share {@code f} of {@code F},
 * so the flushers of one process never wait on each other's row locks. On a node of a
 * multi-primary cluster (Galera) of {@code N} nodes, the node with index {@code n} owns {@code F}
 * of {@code N × F} shares: its flusher {@code f} owns share {@code n × F + f}, so that processes
 * on different nodes never write the same slot rows and never fail each other's certification at
 * COMMIT. Flushers of two processes on one node share a share: their rows meet only as rows of any
 * two writers do, and random choice among the share's slots keeps them mostly apart.
 *
 * @param share this flusher's share, from 0 to {@code shares - 1}
 * @param shares how many shares the slots are cut into
 */
public record SlotShare(int share, int shares) {
    /**
     * Checks the share.
     *
     * @throws IllegalArgumentException if the share is not within the shares
     */
    public SlotShare {
        if (shares < 1 || share < 0 || share >= shares) {
            throw new IllegalArgumentException("slot share " + share + " is not within " + shares + " shares");
        }
    }

    /**
     * The share of a flusher, given where the node its connection reached stands.
     *
     * @param flusher the flusher's index in its process, from 0
     * @param flushers how many flushers the process runs
     * @param node the node's position in a cluster, or empty outside one
     * @return the share
     */
    public static SlotShare of(int flusher, int flushers, Optional<ClusterNode> node) {
        return node.map(n -> new SlotShare(n.index() * flushers + flusher, n.size() * flushers))
                .orElseGet(() -> new SlotShare(flusher, flushers));
    }

    /**
     * The share's slot of a counter type that a draw names.
     *
     * @param slots the picker, which knows the type's slot count
     * @param recordType the counter's type
     * @param draw any number from 0, drawn at random
     * @return a slot of the share
     */
    public int pick(SlotPicker slots, int recordType, int draw) {
        return slots.pickOwned(recordType, share, shares, draw);
    }
}
