package io.slotted.bench;

import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * What the writers run on. Platform threads are the default and what every published number used;
 * virtual threads show whether a strategy holds up with many more writers than a platform thread
 * per writer would allow, and whether blocking in it pins a carrier.
 */
public enum ThreadKind {
    /** One operating-system thread per writer. */
    PLATFORM {
        @Override
        ThreadFactory factory() {
            return runnable -> {
                Thread thread = new Thread(runnable);
                thread.setDaemon(true);
                return thread;
            };
        }

        @Override
        boolean available() {
            return true;
        }
    },
    /** One virtual thread per writer; needs Java 21 or later at run time. */
    VIRTUAL {
        @Override
        ThreadFactory factory() {
            return VirtualThreads.factory();
        }

        @Override
        boolean available() {
            return VirtualThreads.available();
        }
    };

    /**
     * Makes writer threads; they are daemons, so a writer that never ends cannot keep the JVM up.
     *
     * @return a factory of unstarted threads
     * @throws UnsupportedOperationException if this JVM cannot make such threads
     */
    abstract ThreadFactory factory();

    /**
     * Whether this JVM can make such threads.
     *
     * @return true if {@link #factory()} will succeed
     */
    abstract boolean available();

    /**
     * The name used on the command line and in results.
     *
     * @return {@code platform} or {@code virtual}
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
