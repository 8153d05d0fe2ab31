package io.slotted.campaign.faults;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The processes of one campaign server and the signals sent to them, guarded: a process is signalled
 * only if, checked right before the signal, its working directory or its command line lies in the
 * server's own directory, which itself must lie under this module's {@code target/}. MariaDB runs
 * in its data directory and names it on its command line; PostgreSQL's postmaster and backends run
 * in theirs (their command lines are rewritten to {@code postgres: ...}).
 *
 * <p>Linux only: it reads {@code /proc} and sends signals with {@code kill}.
 */
final class ServerProcesses {
    private static final Path TARGET = Path.of("target").toAbsolutePath().normalize();
    private static final Duration SIGNAL_WAIT = Duration.ofSeconds(30);
    private static final char STOPPED = 'T';
    private static final char ZOMBIE = 'Z';

    private final Path home;
    private final Supplier<List<ProcessHandle>> finder;

    /**
     * @param home the server's own directory, under {@code target/}
     * @param finder the server's processes now, the main one first
     * @throws IllegalArgumentException if {@code home} is not under {@code target/}
     */
    ServerProcesses(Path home, Supplier<List<ProcessHandle>> finder) {
        this.home = home.toAbsolutePath().normalize();
        this.finder = finder;
        if (!this.home.startsWith(TARGET) || this.home.equals(TARGET)) {
            throw new IllegalArgumentException("a campaign server's directory must be inside " + TARGET
                    + ", but was " + this.home);
        }
    }

    /** The server's processes now that are alive and its own, the main one first. */
    List<ProcessHandle> list() {
        return finder.get().stream().filter(ServerProcesses::running).filter(this::owns).toList();
    }

    /** Whether the process runs in or names this server's directory, and is not this JVM. */
    boolean owns(ProcessHandle process) {
        if (process.pid() == ProcessHandle.current().pid()) {
            return false;
        }
        return workingDirectory(process).map(dir -> dir.startsWith(home)).orElse(false)
                || commandLine(process).contains(home.toString());
    }

    /**
     * Stops every process, and again any that appeared meanwhile (a child forked before its parent
     * stopped), until none is left running; returns them all.
     */
    List<ProcessHandle> pause() {
        List<ProcessHandle> stopped = new ArrayList<>();
        for (List<ProcessHandle> now = requireSome(list()); !stopped.containsAll(now); now = list()) {
            for (ProcessHandle process : now) {
                if (!stopped.contains(process)) {
                    signal(process, "STOP");
                    stopped.add(process);
                }
            }
            // SIGSTOP takes effect a moment later: a process may still fork until then.
            stopped.forEach(process -> await().atMost(SIGNAL_WAIT).pollInterval(Duration.ofMillis(1))
                    .until(() -> state(process) == STOPPED || !running(process)));
        }
        return stopped;
    }

    /** Continues every process, the children before the main one. */
    void resume() {
        List<ProcessHandle> now = new ArrayList<>(list());
        Collections.reverse(now);
        now.forEach(process -> signal(process, "CONT"));
    }

    /** Stops forking, then kills every process with SIGKILL and waits until all are gone. */
    void kill() {
        List<ProcessHandle> all = pause();
        for (ProcessHandle process : all) {
            if (running(process)) {
                requireOwned(process);
                process.destroyForcibly();
            }
        }
        all.forEach(process -> await().atMost(SIGNAL_WAIT).pollInterval(Duration.ofMillis(5))
                .until(() -> !running(process)));
    }

    /** @throws IllegalStateException if a process of the server is still alive */
    void requireNone(String action) {
        List<ProcessHandle> left = list();
        if (!left.isEmpty()) {
            throw new IllegalStateException("cannot " + action + " the server in " + home + " while its processes "
                    + left.stream().map(ProcessHandle::pid).toList() + " run");
        }
    }

    /** Sends a signal to a process of this server's that is still running. */
    private void signal(ProcessHandle process, String signal) {
        if (!running(process)) {
            return;
        }
        requireOwned(process);
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (kill.waitFor() != 0 && running(process)) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill -" + signal + " " + process.pid(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal + " to " + process.pid(), e);
        }
    }

    private void requireOwned(ProcessHandle process) {
        if (!owns(process)) {
            throw new IllegalStateException("refusing to signal process " + process.pid() + " (in "
                    + workingDirectory(process).map(Path::toString).orElse("?") + ", command line '"
                    + commandLine(process) + "'): it is not a process of the server in " + home);
        }
    }

    private List<ProcessHandle> requireSome(List<ProcessHandle> processes) {
        if (processes.isEmpty()) {
            throw new IllegalStateException("the server in " + home + " has no running process");
        }
        return processes;
    }

    /** Alive and not a zombie: a killed process whose parent has not reaped it yet is gone. */
    static boolean running(ProcessHandle process) {
        return process.isAlive() && state(process) != ZOMBIE;
    }

    /** The state letter of {@code /proc/<pid>/stat} (R, S, D, T, Z...), or Z if there is none. */
    static char state(ProcessHandle process) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2);
        } catch (IOException | RuntimeException e) {
            return ZOMBIE;
        }
    }

    private static Optional<Path> workingDirectory(ProcessHandle process) {
        try {
            return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()), "cwd")));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static String commandLine(ProcessHandle process) {
        try {
            byte[] bytes = Files.readAllBytes(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
            return new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
