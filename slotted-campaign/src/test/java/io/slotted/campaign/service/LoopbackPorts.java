package io.slotted.campaign.service;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for a service process, chosen once and kept across its restarts: free on loopback now, and
 * below Linux's range of ephemeral ports (32768 and up), so that no client connection takes one as
 * its local port while the process is down.
 */
final class LoopbackPorts {
    private static final int LOWEST = 20_000;
    private static final int PAST_HIGHEST = 32_000;

    private LoopbackPorts() {
    }

    /** {@code count} distinct ports, free now. */
    static int[] free(int count) {
        int[] ports = new int[count];
        for (int i = 0; i < count; i++) {
            int port;
            do {
                port = ThreadLocalRandom.current().nextInt(LOWEST, PAST_HIGHEST);
            } while (!isFree(port) || taken(ports, i, port));
            ports[i] = port;
        }
        return ports;
    }

    private static boolean isFree(int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean taken(int[] ports, int chosen, int port) {
        return Arrays.stream(ports, 0, chosen).anyMatch(existing -> existing == port);
    }
}
