package io.slotted.campaign.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard on signals, with real processes ({@code sleep}) standing in for a server's: only those
 * that run in the server's directory under {@code target/} are ever signalled.
 */
class ServerProcessesTest {
    private static final Path HOME = Path.of("target", "server-processes-test", "home").toAbsolutePath();

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killWhatWasStarted() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void processInTheServersDirectory_isPausedResumedAndKilled() throws IOException {
        Process sleeper = sleepIn(HOME);
        ServerProcesses processes = new ServerProcesses(HOME, () -> List.of(sleeper.toHandle()));

        assertThat(processes.pause()).containsExactly(sleeper.toHandle());
        assertThat(ServerProcesses.state(sleeper.toHandle())).isEqualTo('T');

        processes.resume();
        await().atMost(Duration.ofSeconds(10)).until(() -> ServerProcesses.state(sleeper.toHandle()) != 'T');

        processes.kill();
        assertThat(sleeper.isAlive()).isFalse();
        assertThat(processes.list()).isEmpty();
    }

    @Test
    void processOutsideTheServersDirectory_isNeverSignalled() throws IOException {
        Process elsewhere = sleepIn(HOME.resolveSibling("elsewhere"));
        ServerProcesses processes = new ServerProcesses(HOME, () -> List.of(elsewhere.toHandle(),
                ProcessHandle.current()));

        assertThat(processes.list()).isEmpty();
        assertThatThrownBy(processes::pause).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has no running process");
        assertThatThrownBy(processes::kill).isInstanceOf(IllegalStateException.class);
        assertThat(elsewhere.isAlive()).isTrue();
        assertThat(ServerProcesses.state(elsewhere.toHandle())).isNotEqualTo('T');
    }

    @Test
    void serverDirectoryOutsideTarget_isRefused() {
        assertThatThrownBy(() -> new ServerProcesses(Path.of("/var/lib/mysql"), List::of))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/var/lib/mysql");
        assertThatThrownBy(() -> new ServerProcesses(Path.of("target"), List::of))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private Process sleepIn(Path directory) throws IOException {
        Files.createDirectories(directory);
        Process process = new ProcessBuilder("sleep", "60").directory(directory.toFile()).start();
        started.add(process);
        return process;
    }
}
