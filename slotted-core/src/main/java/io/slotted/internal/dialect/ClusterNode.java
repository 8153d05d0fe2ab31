package io.slotted.internal.dialect;

/**
 * Where the node a connection reached stands in a multi-primary cluster (MariaDB Galera): its
 * index among the cluster's nodes and how many there are. Flushers on different nodes use it to
 * write different slots, so that their transactions never touch the same rows and never fail
 * each other's certification.
 *
 * @param index the node's index, from 0 to {@code size - 1}
 * @param size how many nodes the cluster has now
 */
public record ClusterNode(int index, int size) {
    /**
     * Checks the position.
     *
     * @throws IllegalArgumentException if the index is not within the size
     */
    public ClusterNode {
        if (size < 1 || index < 0 || index >= size) {
            throw new IllegalArgumentException("cluster node index " + index + " is not within a cluster of "
                    + size);
        }
    }
}
