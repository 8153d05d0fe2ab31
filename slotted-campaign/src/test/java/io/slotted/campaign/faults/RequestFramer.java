package io.slotted.campaign.faults;

/**
 * Follows the bytes a client sends on one connection and finds where each request ends: the point
 * after which the client sends nothing more until the server has answered. A fault that holds or
 * cuts "the packet that carries a COMMIT" acts on that whole request, however the kernel split it
 * into reads: a flush of many rows can take several reads, and half of it is not a flush.
 *
 * <p>One framer per connection, fed every byte the client sends, in order, from the first.
 */
interface RequestFramer {
    /**
     * Takes in {@code bytes[from..to)}, the next bytes the client sent, and finds the first end of
     * a request among them.
     *
     * @return the offset just after the first request that ends in {@code [from, to)}, having taken
     *     in the bytes up to it and no further; or -1 if no request ends there, having taken in all
     */
    int advance(byte[] bytes, int from, int to);
}
