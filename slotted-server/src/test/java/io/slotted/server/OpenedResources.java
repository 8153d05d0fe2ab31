package io.slotted.server;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a test opened — services, connections, locks, users — closed in the reverse order, every
 * one of them even when one fails, so that a failing test leaves no table, lock or user behind.
 */
final class OpenedResources implements AutoCloseable {
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /** Adds a resource, to be closed before those added earlier. */
    <T extends AutoCloseable> T add(T resource) {
        opened.push(resource);
        return resource;
    }

    /** Adds a resource, to be closed after every other one, such as a user its tables need. */
    void addLast(AutoCloseable resource) {
        opened.addLast(resource);
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        while (!opened.isEmpty()) {
            try {
                opened.pop().close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
