package io.slotted.campaign;

import io.slotted.campaign.check.Anomaly;
import io.slotted.campaign.check.CheckReport;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Kind;
import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a campaign did and found: operations by kind and outcome, faults by kind, and the
 * checker's verdict; for an anomaly, the seed, the counter's history and the command that
 * replays it.
 *
 * @param settings the campaign's settings
 * @param operations the history
 * @param faults how many faults of each kind were made, by name
 * @param releases how many releases of a copy-mode type went through
 * @param recounts how many recounts went through
 * @param check what the checker found
 * @param finals each counter's final value
 */
public record CampaignReport(CampaignSettings settings, List<Operation> operations, Map<String, Integer> faults,
        int releases, int recounts, CheckReport check, Map<Counter, Long> finals) {

    /** Operations by kind, then by outcome. */
    public Map<Kind, Map<Outcome, Long>> operationsByKind() {
        Map<Kind, Map<Outcome, Long>> counts = new EnumMap<>(Kind.class);
        operations.forEach(operation -> counts.computeIfAbsent(operation.kind(), k -> new EnumMap<>(Outcome.class))
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
        return "campaign on " + settings.database() + ", seed " + settings.seed() + ", " + settings.duration().toSeconds()
                + " s: " + operations.size() + " operations " + operationsByKind() + "; faults " + new TreeMap<>(faults)
                + "; " + releases + " releases and " + recounts + " recounts went through"
                + "; unknown outcomes per counter " + nonZero(check.unknowns()) + (check.unchecked() == 0 ? ""
                        : "; " + check.unchecked() + " reads and final values unchecked after a set of unknown outcome")
                + "; finals " + abbreviated(finals) + "; "
                + check.anomalies().size() + " anomalies " + anomalyCounts();
    }

    /** Every anomaly, each with its counter's history, and how to replay the run. */
    public String anomalies() {
        StringBuilder text = new StringBuilder(summary()).append('\n');
        for (Anomaly anomaly : check.anomalies().stream().limit(20).toList()) {
            text.append("\n").append(anomaly).append('\n');
            history(anomaly).forEach(operation -> text.append("    ").append(operation).append('\n'));
        }
        return text.append("\nreplay: ").append(settings.replayCommand()).append('\n').toString();
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

    /** The counters with at least one unknown outcome. */
    private static Map<Counter, Integer> nonZero(Map<Counter, Integer> unknowns) {
        Map<Counter, Integer> some = new TreeMap<>();
        unknowns.forEach((counter, count) -> {
            if (count > 0) {
                some.put(counter, count);
            }
        });
        return some;
    }

    /** The final values of the counters other than the released ones, and how many those are. */
    private static String abbreviated(Map<Counter, Long> finals) {
        Map<Counter, Long> shown = new TreeMap<>();
        finals.forEach((counter, value) -> {
            if (counter.type() != io.slotted.campaign.workload.CampaignTypes.RELEASED) {
                shown.put(counter, value);
            }
        });
        return shown + " and " + (finals.size() - shown.size()) + " released or releasable counters";
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
