package io.slotted.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Node.js clients the tests drive — ioredis and playwright-core — installed as
 * {@code src/test/node/package-lock.json} pins them, once per checkout, when npm is there and a
 * package is missing: {@code mvn verify} then needs no step of its own. When it cannot install
 * them, the tests that need them fail saying how.
 */
final class NodeClients {
    /** Where the scripts and their packages are. */
    static final Path DIRECTORY = Path.of("src", "test", "node");
    private static final List<String> PACKAGES = List.of("ioredis", "playwright-core");

    private NodeClients() {
    }

    /**
     * Runs {@code npm ci} unless every package is installed.
     *
     * @throws InterruptedException if interrupted while npm runs
     */
    static synchronized void install() throws InterruptedException {
        if (PACKAGES.stream().allMatch(name -> Files.isDirectory(DIRECTORY.resolve("node_modules").resolve(name)))) {
            return;
        }
        try {
            Files.createDirectories(Path.of("target"));
            Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund").directory(DIRECTORY.toFile())
                    .redirectErrorStream(true).redirectOutput(Path.of("target", "npm-ci.log").toFile()).start();
            if (!npm.waitFor(5, TimeUnit.MINUTES)) {
                npm.destroyForcibly();
            }
        } catch (IOException e) {
            // No npm: the tests that need the packages say how to install them.
        }
    }
}
