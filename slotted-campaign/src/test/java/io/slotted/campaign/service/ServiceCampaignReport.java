package io.slotted.campaign.service;

import io.slotted.campaign.CampaignSettings;
import io.slotted.campaign.check.Anomaly;
import io.slotted.campaign.check.CheckReport;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Kind;
import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a service campaign did and found, as {@link io.slotted.campaign.CampaignReport} says it for
 * the library's: operations by kind and outcome, and by process and front end; faults by kind;
 * what the processes did not do as promised (a stop that did not exit 0); and the checker's
 * verdict, each anomaly with its counter's history, and the command that replays the run.
 *
 * @param settings the campaign's settings
 * @param operations the history
 * @param faults how many faults of each kind were made
 * @param check what the checker found
 * @param finals each counter's final value
 * @param deadlines each process's request deadline
 * @param notes what the service processes did not do as promised, which the checker does not judge
 */
public record ServiceCampaignReport(CampaignSettings settings, List<Operation> operations,
        Map<String, Integer> faults, CheckReport check, Map<Counter, Long> finals,
        Map<String, Duration> deadlines, List<String> notes) {
    /** The system property that runs the test on one database only, to replay a seed there. */
    public static final String DATABASE = CampaignSettings.DATABASE;

    /** The command that runs this campaign again. */
    public static String replayCommand(CampaignSettings settings) {
        return "mvn -B -o -pl slotted-campaign verify -Dtest=ServiceCampaignTest -D" + DATABASE + "="
                + settings.database().name().toLowerCase(Locale.ROOT) + " -D" + CampaignSettings.SEED + "="
                + settings.seed() + " -D" + CampaignSettings.SECONDS + "=" + settings.duration().toSeconds();
    }

    /** Operations by kind, then by outcome. */
    public Map<Kind, Map<Outcome, Long>> operationsByKind() {
        Map<Kind, Map<Outcome, Long>> counts = new EnumMap<>(Kind.class);
        operations.forEach(operation -> counts.computeIfAbsent(operation.kind(), k -> new EnumMap<>(Outcome.class))
                .merge(operation.outcome(), 1L, Long::sum));
        return counts;
    }

    /** Operations by process and front end ({@code s1/http}), then by outcome. */
    public Map<String, Map<Outcome, Long>> operationsByFrontEnd() {
        Map<String, Map<Outcome, Long>> counts = new TreeMap<>();
        operations.forEach(operation -> counts.computeIfAbsent(operation.process(), k -> new EnumMap<>(Outcome.class))
                .merge(operation.outcome(), 1L, Long::sum));
        return counts;
    }

    /** How many anomalies of each kind. */
    public Map<Anomaly.Kind, Long> anomalyCounts() {
        Map<Anomaly.Kind, Long> counts = new EnumMap<>(Anomaly.Kind.class);
        check.anomalies().forEach(anomaly -> counts.merge(anomaly.kind(), 1L, Long::sum));
        return counts;
    }

    /**
     * Writes the report, and the whole history beside it, under {@code directory}.
     *
     * @return the report's file
     */
    public Path write(Path directory) throws IOException {
        String name = settings.database().name().toLowerCase(Locale.ROOT) + "-" + settings.seed();
        Files.createDirectories(directory);
        Files.write(directory.resolve(name + "-history.txt"),
                operations.stream().map(Operation::toString).collect(Collectors.toList()));
        Path report = directory.resolve(name + ".txt");
        Files.writeString(report, anomalies());
        return report;
    }

    /** A summary of a few lines. */
    public String summary() {
        return "service campaign on " + settings.database() + ", seed " + settings.seed() + ", "
                + settings.duration().toSeconds() + " s, request deadlines " + deadlines + ": " + operations.size()
                + " operations " + operationsByKind()
                + "\n  by front end " + operationsByFrontEnd() + "\n  faults " + new TreeMap<>(faults)
                + "\n  unknown outcomes per counter " + check.unknowns() + (check.inexactFinals() == 0 ? ""
                        : " (" + check.inexactFinals() + " final values checked by range only)")
                + "\n  finals " + finals + (notes.isEmpty() ? "" : "\n  processes: " + String.join("; ", notes))
                + "\n  " + check.anomalies().size() + " anomalies " + anomalyCounts();
    }

    /** Every anomaly, each with its counter's history, and how to replay the run. */
    public String anomalies() {
        StringBuilder text = new StringBuilder(summary()).append('\n');
        for (Anomaly anomaly : check.anomalies().stream().limit(20).toList()) {
            text.append("\n").append(anomaly).append('\n');
            history(anomaly).forEach(operation -> text.append("    ").append(operation).append('\n'));
        }
        return text.append("\nreplay: ").append(replayCommand(settings)).append('\n').toString();
    }

    /**
     * The operations an anomaly concerns: those it names, and its counter's — around the
     * operations it names, or else the last ones — 40 at most.
     */
    private List<Operation> history(Anomaly anomaly) {
        List<Operation> concerned = operations.stream().filter(operation -> anomaly.operations().contains(operation.id())
                || anomaly.counter() != null && (operation.deltas().containsKey(anomaly.counter())
                        || operation.values().containsKey(anomaly.counter()))).collect(Collectors.toList());
        int named = anomaly.operations().isEmpty() ? concerned.size() - 1
                : indexOf(concerned, anomaly.operations().get(0));
        int from = Math.max(0, Math.min(named - 30, concerned.size() - 40));
        return concerned.subList(from, Math.min(concerned.size(), from + 40));
    }

    private static int indexOf(List<Operation> operations, long id) {
        for (int i = 0; i < operations.size(); i++) {
            if (operations.get(i).id() == id) {
                return i;
            }
        }
        return operations.size() - 1;
    }
}
