package io.slotted.server.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/**
 * {@code slotted bench}: listed so that {@code slotted --help} shows the benchmark, which ships in
 * its own jar. Benchmark code and its dependencies (JMH, Jedis, HdrHistogram) stay out of the
 * product's jar, so this command only says where the benchmark is, whatever it is given.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Runs the contention benchmark (single-row UPDATE, DIRECT, GROUPED, BUFFERED,"
                + " Redis INCR); in its own jar: run it as ./slotted bench …")
final class BenchCommand implements Callable<Integer> {
    @Unmatched
    List<String> benchmarkArguments;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "the benchmark is not in slotted.jar: run"
                + " ./slotted bench [options] from a checkout (the launcher builds and runs"
                + " slotted-bench/target/slotted-bench.jar) or java -jar"
                + " slotted-bench/target/slotted-bench.jar [options]");
    }
}
