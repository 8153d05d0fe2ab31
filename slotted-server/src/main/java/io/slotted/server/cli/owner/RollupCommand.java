package io.slotted.server.cli.owner;

import io.slotted.RollUpReport;
import io.slotted.SlottedStats;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.DurationConverter;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.store.FailureMessage;
import io.slotted.server.store.PooledCounters;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code slotted rollup [--once] [--every 1s]}: rolls up every counter type bound to an owner
 * column.
 *
 * <p>With {@code --once} it rolls up once, waiting for a roller in another process and for a type
 * bound moments ago, prints what it did, and exits. Otherwise it builds counters that roll up in
 * the background every interval, as {@code serve} does, and runs until SIGTERM or Ctrl-C, logging
 * what it rolled up now and then. Any number of these and of services may run on one database: the
 * library lets one process at a time roll up each type. On SIGTERM a JVM shutdown hook lets a
 * roll-up under way finish, then ends the process with 0 (1 if stopping failed), as {@code serve}
 * does.
 */
@Command(name = "rollup", mixinStandardHelpOptions = true,
        description = "Rolls up every counter type bound to an owner column, once or until stopped.")
public final class RollupCommand implements Callable<Integer> {
    /** How often, at most, progress is logged while running. */
    private static final Duration REPORT_EVERY = Duration.ofSeconds(10);
    /** Connections: the roller's lock and its work, and a reader of the type registry. */
    private static final int POOL_SIZE = 4;
    private static final Logger log = LoggerFactory.getLogger(RollupCommand.class);

    @Option(names = "--once", defaultValue = "${env:SLOTTED_ROLLUP_ONCE:-false}",
            description = "Roll up once, print what was done, and exit. Env: SLOTTED_ROLLUP_ONCE.")
    boolean once;

    @Option(names = "--every", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_ROLLUP_EVERY:-1s}",
            description = "How often each bound type is rolled up while running, 10ms to 60m."
                    + " Default: 1s. Env: SLOTTED_ROLLUP_EVERY.")
    Duration every;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        if (once) {
            db.withCounters(POOL_SIZE, counters -> print(counters.owners().rollUpNow()));
            return 0;
        }
        if (every.isZero()) {
            throw new ParameterException(spec.commandLine(), "--every 0 would never roll up: give"
                    + " an interval such as 1s, or --once");
        }
        PooledCounters store = db.open(CounterSettings.DEFAULTS.withRollUpEvery(every), POOL_SIZE);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(store), "slotted-shutdown"));
        log.info("rolling up the counter types bound to owner columns in {} every {} ms; stop with"
                + " Ctrl-C or SIGTERM", store.describe(), every.toMillis());
        reportUntilStopped(store);
        return 0;
    }

    private void print(RollUpReport report) {
        PrintWriter out = spec.commandLine().getOut();
        if (report.types() == 0) {
            out.println("no counter type is bound to an owner column: nothing to roll up (bind one"
                    + " with slotted adopt)");
            return;
        }
        out.println("rolled up " + report.types() + " bound counter type"
                + (report.types() == 1 ? "" : "s"));
        RollUpSummary.print(out, report);
    }

    /**
     * Logs what this process rolled up, every {@link #REPORT_EVERY} or every interval if that is
     * longer, until the shutdown hook ends the process.
     */
    private void reportUntilStopped(PooledCounters store) throws InterruptedException {
        long period = Math.max(REPORT_EVERY.toMillis(), every.toMillis());
        SlottedStats last = store.counters().stats();
        boolean unboundReported = false;
        while (true) {
            TimeUnit.MILLISECONDS.sleep(period);
            SlottedStats now = store.counters().stats();
            if (now.rollUps() > last.rollUps()) {
                log.info("rolled up {} counters in {} roll-ups; the owner columns trail by at most"
                        + " {} ms", now.countersRolledUp() - last.countersRolledUp(),
                        now.rollUps() - last.rollUps(), now.rollUpLagMillis());
            }
            boolean unbound = now.rollUpLagMillis() < 0;
            if (unbound && !unboundReported) {
                log.info("no counter type is bound to an owner column yet: bind one with slotted"
                        + " adopt");
            }
            unboundReported = unbound;
            last = now;
        }
    }

    private static void stop(PooledCounters store) {
        int status = 0;
        log.info("stopping: letting a roll-up under way finish");
        try {
            store.close();
            log.info("stopped");
        } catch (RuntimeException e) {
            log.error("the roll-up did not stop cleanly: {}", FailureMessage.of(e), e);
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }
}
