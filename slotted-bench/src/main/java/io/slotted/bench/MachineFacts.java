package io.slotted.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * What a result depends on besides the code: cores, JDK, database version and, above all, whether
 * commits are durable. A benchmark of counters on a server that does not flush its log at commit
 * measures a different thing, so that setting is read from the server and printed with every run.
 *
 * @param facts labelled facts in the order they are shown
 * @param warnings settings that make the numbers incomparable with durable ones
 */
record MachineFacts(Map<String, String> facts, List<String> warnings) {

    /**
     * Reads the facts from this JVM, {@code /proc}, the database and, if given, Redis.
     *
     * @param url the JDBC URL
     * @param redis the Redis server, or null
     * @return the facts
     * @throws SQLException if the database cannot be reached
     */
    static MachineFacts collect(String url, HostAndPort redis) throws SQLException {
        Map<String, String> facts = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        facts.put("cores (nproc)", String.valueOf(Runtime.getRuntime().availableProcessors()));
        procLine("/proc/cpuinfo", "model name").ifPresent(cpu -> facts.put("cpu", cpu));
        procLine("/proc/meminfo", "MemTotal").ifPresent(memory -> facts.put("memory", gibibytes(memory)));
        facts.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        facts.put("jdk", System.getProperty("java.vm.name") + " " + Runtime.version());
        try (Connection connection = DriverManager.getConnection(url)) {
            readDatabase(connection, facts, warnings);
        }
        if (redis != null) {
            readRedis(redis, facts);
        }
        return new MachineFacts(facts, warnings);
    }

    private static void readDatabase(Connection connection, Map<String, String> facts,
            List<String> warnings) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        facts.put("database", product + " " + connection.getMetaData().getDatabaseProductVersion());
        facts.put("jdbc driver", connection.getMetaData().getDriverName() + " "
                + connection.getMetaData().getDriverVersion());
        if (product.toLowerCase(Locale.ROOT).contains("postgres")) {
            String sync = show(connection, "SHOW synchronous_commit");
            String fsync = show(connection, "SHOW fsync");
            facts.put("durability", "synchronous_commit=" + sync + ", fsync=" + fsync);
            if (!"on".equals(fsync) || "off".equals(sync)) {
                warnings.add("PostgreSQL commits are not durable (synchronous_commit=" + sync
                        + ", fsync=" + fsync + ")");
            }
        } else {
            String flush = show(connection, "SELECT @@innodb_flush_log_at_trx_commit");
            facts.put("durability", "innodb_flush_log_at_trx_commit=" + flush + ", sync_binlog="
                    + show(connection, "SELECT @@sync_binlog") + ", log_bin="
                    + show(connection, "SELECT @@log_bin"));
            if (!"1".equals(flush)) {
                warnings.add("InnoDB does not flush its log at every commit"
                        + " (innodb_flush_log_at_trx_commit=" + flush + "): commits are not durable");
            }
        }
    }

    private static String show(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? row.getString(1) : "?";
        }
    }

    private static void readRedis(HostAndPort redis, Map<String, String> facts) {
        try (Jedis jedis = new Jedis(redis.getHost(), redis.getPort())) {
            String version = jedis.info("server").lines()
                    .filter(line -> line.startsWith("redis_version:"))
                    .map(line -> line.substring("redis_version:".length())).findFirst().orElse("?");
            facts.put("redis", version + " (appendonly=" + config(jedis, "appendonly")
                    + ", appendfsync=" + config(jedis, "appendfsync") + ", save=\""
                    + config(jedis, "save") + "\")");
        }
    }

    private static String config(Jedis jedis, String name) {
        return jedis.configGet(name).getOrDefault(name, "?");
    }

    /** {@code 24684084 kB}, as /proc/meminfo says it, as {@code 23.5 GiB}. */
    private static String gibibytes(String kilobytes) {
        try {
            long kib = Long.parseLong(kilobytes.replace("kB", "").trim());
            return String.format(Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
        } catch (NumberFormatException e) {
            return kilobytes;
        }
    }

    /** The value of the first {@code key: value} line starting with {@code key}, if readable. */
    private static Optional<String> procLine(String file, String key) {
        try (var lines = Files.lines(Path.of(file))) {
            return lines.filter(line -> line.startsWith(key))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
