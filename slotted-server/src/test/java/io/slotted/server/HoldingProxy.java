package io.slotted.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on loopback between the service and a database server that can stop passing bytes on
 * the connections open at the time, as a server does that was paused or is gone without a reset
 * (a failed host, a partitioned network): the service's statements on those connections wait for
 * an answer that does not come, while its new connections reach the server as usual. The service's
 * driver cannot tell that from a server at work, which is the fault a socket timeout is for.
 *
 * <p>What a held connection carries is kept, not dropped: {@link #release()} passes it on, as a
 * resumed server answers late; closing the proxy drops every connection instead.
 */
final class HoldingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Link> links = new CopyOnWriteArrayList<>();

    /**
     * Listens on a free loopback port, forwarding to {@code targetHost:targetPort}.
     *
     * @throws IOException if no port can be listened on
     */
    HoldingProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        daemon("holding-proxy-accept", this::acceptLoop).start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The connections open now pass nothing more either way until {@link #release()}. */
    void holdOpenConnections() {
        links.forEach(link -> link.hold(true));
    }

    /** Passes on what the held connections kept, and everything after it. */
    void release() {
        links.forEach(link -> link.hold(false));
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                Link link = new Link(client, server);
                links.add(link);
                link.start();
            } catch (IOException e) {
                // The listener closed, or the server refused: the client sees its connection drop.
            }
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Link link : links) {
            link.close();
        }
    }

    private static Thread daemon(String name, Runnable work) {
        Thread thread = new Thread(work, name);
        thread.setDaemon(true);
        return thread;
    }

    /** One client connection and its connection to the server, pumped both ways. */
    private static final class Link {
        private final Socket client;
        private final Socket server;
        private boolean held;

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void start() {
            daemon("holding-proxy-up", () -> pump(client, server)).start();
            daemon("holding-proxy-down", () -> pump(server, client)).start();
        }

        synchronized void hold(boolean hold) {
            held = hold;
            notifyAll();
        }

        /** Waits while the link is held; the bytes read meanwhile wait with it. */
        private synchronized void awaitPassing() throws InterruptedException {
            while (held) {
                wait();
            }
        }

        private void pump(Socket from, Socket to) {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitPassing();
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // One side closed: the other is closed below.
            } finally {
                close();
            }
        }

        /** Closes both sockets first, so that nothing held is passed on as the pumps wake. */
        void close() {
            closeQuietly(client);
            closeQuietly(server);
            hold(false);
        }

        private static void closeQuietly(Socket socket) {
            try {
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }
}
