package io.slotted.campaign.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the runnable jar of {@code slotted serve} is: {@code slotted-server/target/slotted.jar}, as
 * the build leaves it, or where {@value #PROPERTY} says.
 *
 * <p><b>Why the jar by its path.</b> A service process runs exactly what ships: the shaded jar with
 * its services, its Logback and its start-up, not the server's classes on the campaign's class
 * path, whose SLF4J binding and dependencies differ. The jar is not a Maven artifact of its own
 * (shade writes it beside the module's plain jar), and the reactor builds {@code slotted-server}
 * before this module, so a build from the root finds it fresh.
 */
final class ServiceJar {
    /** The system property that locates {@code slotted.jar}, if not where the build leaves it. */
    static final String PROPERTY = "slotted.campaign.serverJar";

    private static final Logger LOG = LoggerFactory.getLogger(ServiceJar.class);
    private static final Path DEFAULT = Path.of("..", "slotted-server", "target", "slotted.jar");

    private ServiceJar() {
    }

    /**
     * The jar; a warning is logged if it is older than the server's sources beside it.
     *
     * @throws IllegalStateException if it is missing
     */
    static Path locate() {
        Path jar = Path.of(System.getProperty(PROPERTY, DEFAULT.toString())).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("the service campaign runs slotted serve from " + jar + ", which is"
                    + " missing: build it with mvn -q -B install -DskipTests -pl slotted-server -am, or give"
                    + " -D" + PROPERTY + "=PATH");
        }
        warnIfOlderThanSources(jar);
        return jar;
    }

    /** A jar older than the server's sources runs code that is not what the tree says. */
    private static void warnIfOlderThanSources(Path jar) {
        Path sources = jar.getParent().getParent().resolve("src").resolve("main");
        if (!Files.isDirectory(sources)) {
            return;
        }
        try (Stream<Path> files = Files.walk(sources)) {
            long built = Files.getLastModifiedTime(jar).toMillis();
            files.filter(Files::isRegularFile).filter(file -> modified(file) > built).findFirst()
                    .ifPresent(newer -> LOG.warn("{} is older than {}: rebuild it to run the sources as they are", jar,
                            newer));
        } catch (IOException e) {
            LOG.debug("could not compare {} with its sources: {}", jar, e.toString());
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }
}
