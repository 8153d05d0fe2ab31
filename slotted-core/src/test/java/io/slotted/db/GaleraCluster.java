package io.slotted.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real 3-node MariaDB Galera cluster on loopback, run by the repository's
 * {@code scripts/galera-cluster.sh} (which installs what it needs when missing): node {@code n}
 * (1 to 3) answers on port {@code 4305 + n}. Starting fails loudly when the cluster cannot be
 * made; nothing is skipped.
 */
public final class GaleraCluster implements AutoCloseable {
    /** How many nodes the cluster has. */
    public static final int NODES = 3;
    private static final int FIRST_PORT = 4306;

    private final Path script;
    /** The script's base directory, or null for its default. */
    private final Path base;
    private final int firstPort;

    private GaleraCluster(Path script, Path base, int firstPort) {
        this.script = script;
        this.base = base;
        this.firstPort = firstPort;
    }

    /**
     * Starts the cluster, or reuses a healthy one, and waits until every node is synced.
     *
     * @return the running cluster
     */
    public static GaleraCluster start() {
        return start(null, FIRST_PORT);
    }

    /**
     * Starts a cluster of its own in {@code base}, node 1 on {@code firstPort}, or reuses a healthy
     * one there, and waits until every node is synced.
     *
     * @param base the directory of the nodes' files, or null for the script's default
     * @param firstPort node 1's client port; the script takes the 32 ports from it
     * @return the running cluster
     */
    public static GaleraCluster start(Path base, int firstPort) {
        GaleraCluster cluster = new GaleraCluster(findScript(), base, firstPort);
        cluster.run(600, "start");
        return cluster;
    }

    /** The JDBC URL of node {@code n}. */
    public String jdbcUrl(int node) {
        return "jdbc:mariadb://127.0.0.1:" + port(node) + "/test?user=root";
    }

    /** The client port of node {@code n}. */
    public int port(int node) {
        return firstPort + node - 1;
    }

    /** A pool on node {@code n} only, failing fast while the node is down. */
    public HikariDataSource pool(int node, int size) {
        return pool(node, size, null);
    }

    /** A pool on node {@code n} only, each connection set up by {@code initSql} when not null. */
    public HikariDataSource pool(int node, int size, String initSql) {
        HikariConfig config = new HikariConfig();
        config.setConnectionInitSql(initSql);
        config.setPoolName("galera-node" + node);
        config.setJdbcUrl(jdbcUrl(node) + "&connectTimeout=2000&socketTimeout=20000");
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(3_000);
        config.setInitializationFailTimeout(10_000);
        return new HikariDataSource(config);
    }

    /**
     * A pool that connects to node {@code n} first and, while it is down, to the next node that
     * answers (MariaDB Connector/J's sequential failover).
     */
    public HikariDataSource failoverPool(int node, int size) {
        StringBuilder hosts = new StringBuilder();
        for (int i = 0; i < NODES; i++) {
            int next = (node - 1 + i) % NODES + 1;
            hosts.append(i == 0 ? "" : ",").append("127.0.0.1:").append(port(next));
        }
        HikariConfig config = new HikariConfig();
        config.setPoolName("galera-failover-node" + node);
        config.setJdbcUrl("jdbc:mariadb:sequential://" + hosts + "/test?user=root&connectTimeout=2000"
                + "&socketTimeout=20000");
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(10_000);
        return new HikariDataSource(config);
    }

    /** SIGKILLs node {@code n}; returns once the others have dropped it. */
    public void kill(int node) {
        run(120, "kill", Integer.toString(node));
    }

    /** Starts node {@code n} again and waits until it has rejoined and is synced. */
    public void restart(int node) {
        run(300, "restart", Integer.toString(node));
    }

    /** Stops every node and removes the cluster's files. */
    @Override
    public void close() {
        run(120, "stop");
    }

    private void run(int timeoutSeconds, String... arguments) {
        List<String> command = new java.util.ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(arguments));
        try {
            Path output = Files.createTempFile("galera-", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            if (base != null) {
                builder.environment().put("SLOTTED_GALERA_DIR", base.toString());
            }
            builder.environment().put("SLOTTED_GALERA_PORT", Integer.toString(firstPort));
            Process process = builder.redirectOutput(output.toFile()).start();
            boolean done = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            String printed = Files.readString(output, StandardCharsets.UTF_8);
            Files.deleteIfExists(output);
            if (!done) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish within "
                        + timeoutSeconds + "s:\n" + printed);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited "
                        + process.exitValue() + ":\n" + printed);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    /** The script, from the module's directory (where Maven runs tests) or the repository's. */
    private static Path findScript() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve("scripts").resolve("galera-cluster.sh");
            if (Files.isRegularFile(script)) {
                return script;
            }
        }
        throw new IllegalStateException("scripts/galera-cluster.sh not found above " + Path.of("").toAbsolutePath());
    }
}
