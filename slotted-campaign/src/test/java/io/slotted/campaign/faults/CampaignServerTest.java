package io.slotted.campaign.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Pause, resume, kill and restart of a private server of each kind, with a real driver watching.
 * Each test leaves the server running. The time each fault took is printed, not asserted.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{0}]")
// Galera's cluster is made and tested by the core tests' GaleraCluster; its campaign runs from the command line.
@EnumSource(value = ServerKind.class, names = {"MARIADB", "POSTGRESQL"})
class CampaignServerTest {
    @Parameter
    private ServerKind kind;
    private CampaignServer server;

    @BeforeParameterizedClassInvocation
    void startServer() {
        timed("start", () -> server = kind.start("campaign-signals-" + kind.name().toLowerCase()));
        execute("CREATE TABLE signal_rows (id INT PRIMARY KEY)");
    }

    @AfterParameterizedClassInvocation
    void stopServer() {
        if (server != null) {
            server.stop();
        }
    }

    @BeforeEach
    void emptyTable() {
        execute("DELETE FROM signal_rows");
    }

    @Test
    void processes_areThisServersOwnUnderTarget() {
        List<ProcessHandle> processes = server.processes();

        assertThat(processes).isNotEmpty();
        Path target = Path.of("target").toAbsolutePath();
        for (ProcessHandle process : processes) {
            workingDirectory(process).ifPresent(directory -> assertThat(directory).as("process %d", process.pid())
                    .startsWith(target));
        }
        if (kind == ServerKind.POSTGRESQL) {
            assertThat(processes).as("the postmaster and its children").hasSizeGreaterThan(1);
        }
        System.out.printf("%s: processes %s, the first one's parent %s%n", kind,
                processes.stream().map(ProcessHandle::pid).toList(),
                processes.get(0).parent().map(parent -> parent.pid() + " " + parent.info().command().orElse("?"))
                        .orElse("none"));
    }

    @Test
    void pause_makesAQueryWait_andResumeLetsItFinish() throws Exception {
        try (Connection connection = connect()) {
            assertThat(selectOne(connection)).isEqualTo(1);
            timed("pause", server::pause);

            CompletableFuture<Integer> query = CompletableFuture.supplyAsync(() -> selectOne(connection));

            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> !query.isDone());
            timed("resume", server::resume);
            assertThat(query.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        }
    }

    @Test
    void kill_thenRestart_keepsCommittedDataAndLosesTheRest() throws Exception {
        execute("INSERT INTO signal_rows VALUES (1), (2), (3)");
        int port = server.port();
        List<Long> killed = pids();
        try (Connection open = connect()) {
            open.setAutoCommit(false);
            open.createStatement().execute("INSERT INTO signal_rows VALUES (4)");

            timed("kill", server::kill);
            System.out.printf("%s: killed %s, now in states %s%n", kind, killed, killed.stream()
                    .map(pid -> ProcessHandle.of(pid).map(ServerProcesses::state).orElse('-')).toList());

            assertThat(server.processes()).isEmpty();
            assertThatThrownBy(() -> selectOne(open)).hasCauseInstanceOf(SQLException.class);
        }
        assertThatThrownBy(this::connect).isInstanceOf(SQLException.class);

        timed("restart", server::restart);

        assertThat(server.port()).isEqualTo(port);
        assertThat(pids()).doesNotContainAnyElementsOf(killed);
        assertThat(ids()).containsExactly(1, 2, 3);
    }

    @Test
    void killWhilePaused_thenRestart_recovers() throws Exception {
        execute("INSERT INTO signal_rows VALUES (5)");
        server.pause();

        server.kill();
        server.restart();

        assertThat(ids()).containsExactly(5);
    }

    @Test
    void restart_whileTheServerRuns_isRefused() {
        assertThatThrownBy(server::restart).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("while its processes");
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl());
    }

    private List<Long> pids() {
        return server.processes().stream().map(ProcessHandle::pid).toList();
    }

    private List<Integer> ids() throws SQLException {
        try (Connection connection = connect();
                ResultSet rows = connection.createStatement().executeQuery("SELECT id FROM signal_rows ORDER BY id")) {
            List<Integer> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
            return ids;
        }
    }

    private void execute(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static int selectOne(Connection connection) {
        try (ResultSet row = connection.createStatement().executeQuery("SELECT 1")) {
            row.next();
            return row.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException("SELECT 1 failed", e);
        }
    }

    /** A process's working directory; empty if it ended since it was listed (a PostgreSQL backend may). */
    private static Optional<Path> workingDirectory(ProcessHandle process) {
        try {
            return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd")));
        } catch (IOException e) {
            if (!process.isAlive()) {
                return Optional.empty();
            }
            throw new IllegalStateException(e);
        }
    }

    private void timed(String what, Runnable action) {
        long start = System.nanoTime();
        action.run();
        System.out.printf("%s: %s took %d ms%n", kind, what, (System.nanoTime() - start) / 1_000_000);
    }
}
