package io.slotted.bench;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads for a module built for Java 17: {@code Thread.ofVirtual()} does not exist at
 * compile time ({@code --release 17}), so it is looked up with method handles when the benchmark
 * runs, on whichever JVM starts the jar. The lookup happens once per run; the factory it returns
 * is the JDK's own, so making a thread costs no reflection.
 */
final class VirtualThreads {
    /** The first release where virtual threads are final rather than a preview. */
    static final int FIRST_RELEASE = 21;

    private VirtualThreads() {
    }

    /**
     * Whether this JVM has virtual threads.
     *
     * @return true from Java {@value #FIRST_RELEASE} on
     */
    static boolean available() {
        return Runtime.version().feature() >= FIRST_RELEASE;
    }

    /**
     * {@code Thread.ofVirtual().factory()}, called through method handles.
     *
     * @return a factory of unstarted virtual threads
     * @throws UnsupportedOperationException if this JVM is older than Java {@value #FIRST_RELEASE}
     */
    static ThreadFactory factory() {
        if (!available()) {
            throw new UnsupportedOperationException("virtual threads need Java " + FIRST_RELEASE
                    + " or later, but this is Java " + Runtime.version());
        }
        try {
            Class<?> builder = Class.forName("java.lang.Thread$Builder");
            Class<?> ofVirtualBuilder = Class.forName("java.lang.Thread$Builder$OfVirtual");
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            MethodHandle ofVirtual = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(ofVirtualBuilder));
            MethodHandle factory = lookup.findVirtual(builder, "factory",
                    MethodType.methodType(ThreadFactory.class));
            return (ThreadFactory) factory.invoke(ofVirtual.invoke());
        } catch (Throwable e) {
            throw new IllegalStateException("Java " + Runtime.version() + " should have"
                    + " Thread.ofVirtual(), but it could not be called: " + e, e);
        }
    }
}
