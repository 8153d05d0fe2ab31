package io.slotted;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Virtual threads for tests compiled for Java 17, the build's floor: made through reflection, and
 * a JFR recording of the moments one of them pinned its carrier thread while it waited.
 *
 * <p>Tests that use them carry the {@value #TAG} tag, which the build runs only on Java 21 or
 * later. On an older JVM they fail rather than pass or skip: a virtual-thread test that did not
 * run on virtual threads proves nothing.
 */
final class VirtualThreads {
    static final String TAG = "virtual-threads";

    private VirtualThreads() {
    }

    /** An executor that starts a virtual thread per task. */
    static ExecutorService perTask() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("virtual threads need Java 21 or later; this is Java "
                    + Runtime.version() + ". Run the " + TAG + " tests on a newer JDK", e);
        }
    }

    /** Records every pinning of a carrier thread, however short, until closed. */
    static final class PinningRecorder implements AutoCloseable {
        private final Recording recording = new Recording();
        private List<RecordedEvent> pinned;

        PinningRecorder() {
            setUpSocketPoller();
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.start();
        }

        /**
         * The JDK sets up its socket poller the first time a virtual thread waits on a socket
         * read, and a virtual thread that waits meanwhile pins its carrier: a one-off of the
         * JDK's, made to happen here, before recording. A read that finds its data at once never
         * waits, so a few queries may not make it happen; a read with nothing to come does.
         */
        private static void setUpSocketPoller() {
            ExecutorService executor = perTask();
            try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                Future<?> read = executor.submit(() -> {
                    try (Socket socket = new Socket(server.getInetAddress(), server.getLocalPort())) {
                        socket.setSoTimeout(50);
                        socket.getInputStream().read();
                    } catch (SocketTimeoutException nothingCame) {
                        // waited, as meant
                    }
                    return null;
                });
                try (Socket accepted = server.accept()) {
                    read.get(30, TimeUnit.SECONDS);
                }
            } catch (Exception e) {
                throw new AssertionError("could not set up the JDK's socket poller before recording", e);
            } finally {
                executor.shutdown();
            }
        }

        /** Stops recording and returns the pinning events, each with its stack. */
        List<RecordedEvent> pinned() throws IOException {
            if (pinned == null) {
                recording.stop();
                Path file = Files.createTempFile("slotted-pinning", ".jfr");
                try {
                    recording.dump(file);
                    pinned = RecordingFile.readAllEvents(file);
                } finally {
                    Files.deleteIfExists(file);
                }
            }
            return pinned;
        }

        @Override
        public void close() {
            recording.close();
        }
    }
}
