package io.slotted.bench.report;

import io.slotted.bench.Summary;
import io.slotted.bench.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Draws throughput as grouped bar charts in one SVG file: one chart per workload, writer counts
 * along the x axis, one bar per strategy, each bar labelled with its value.
 *
 * <p>Hand-written because the picture is simple and a charting library would pull in a renderer
 * for a few dozen rectangles. When the fastest bar is more than {@value #LOG_SCALE_SPREAD} times
 * the slowest (Redis or write-behind next to a single-row update), the y axis is logarithmic so
 * that every bar stays visible; the labels carry the exact values either way. A bar whose cell was
 * not exact is labelled with a cross.
 */
public final class SvgChart {
    private static final double LOG_SCALE_SPREAD = 30;
    private static final int WIDTH = 1000;
    private static final int CHART_HEIGHT = 440;
    private static final int LEFT = 80;
    private static final int RIGHT = 20;
    private static final int TOP = 92;
    private static final int BOTTOM = 56;
    private static final Map<String, String> COLOURS = Map.of(
            "single-row", "#9e9e9e", "direct", "#f28e2b", "grouped", "#4e79a7",
            "buffered", "#76b7b2", "redis", "#e15759", "ceiling", "#9c755f");
    private static final String[] SPARE_COLOURS = {"#59a14f", "#b07aa1", "#edc948"};

    private final List<Summary> summaries;
    private final String caption;
    private final StringBuilder svg = new StringBuilder();

    private SvgChart(List<Summary> summaries, String caption) {
        this.summaries = summaries;
        this.caption = caption;
    }

    /**
     * Writes the charts, replacing any earlier file.
     *
     * @param file where to write
     * @param summaries the cells
     * @param caption said under each title, such as the database and its durability setting
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, List<Summary> summaries, String caption) throws IOException {
        Files.writeString(file, new SvgChart(summaries, caption).render(), StandardCharsets.UTF_8);
    }

    private String render() {
        List<Workload> workloads = summaries.stream().map(Summary::workload).distinct().toList();
        int height = Math.max(1, workloads.size()) * CHART_HEIGHT;
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
                + " height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\">\n",
                WIDTH, height, WIDTH, height));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (int i = 0; i < workloads.size(); i++) {
            Workload workload = workloads.get(i);
            chart(workload, summaries.stream().filter(s -> s.workload() == workload).toList(),
                    i * CHART_HEIGHT);
        }
        return svg.append("</svg>\n").toString();
    }

    private void chart(Workload workload, List<Summary> cells, int top) {
        List<Integer> writers = cells.stream().map(Summary::writers).distinct().sorted().toList();
        List<String> strategies = cells.stream().map(Summary::strategy).distinct().toList();
        Scale scale = Scale.fitting(cells.stream().mapToDouble(Summary::throughput).toArray());
        double plotTop = top + TOP;
        double plotBottom = top + CHART_HEIGHT - BOTTOM;
        title(workload, top);
        legend(strategies, top + 66);
        axes(scale, plotTop, plotBottom);
        double groupWidth = (WIDTH - LEFT - RIGHT) / (double) writers.size();
        double barWidth = groupWidth * 0.8 / strategies.size();
        for (int g = 0; g < writers.size(); g++) {
            double groupLeft = LEFT + g * groupWidth;
            text(groupLeft + groupWidth / 2, plotBottom + 18, "middle", 13, "#222",
                    String.valueOf(writers.get(g)));
            for (int s = 0; s < strategies.size(); s++) {
                double x = groupLeft + groupWidth * 0.1 + s * barWidth;
                bar(cells, strategies.get(s), writers.get(g), scale, x, barWidth, plotTop, plotBottom);
            }
        }
        text(LEFT + (WIDTH - LEFT - RIGHT) / 2.0, plotBottom + 42, "middle", 13, "#222",
                "concurrent writers");
        double middle = (plotTop + plotBottom) / 2;
        svg.append(String.format(Locale.ROOT, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\""
                + " font-size=\"13\" fill=\"#222\" transform=\"rotate(-90 18 %.1f)\">%s</text>\n",
                middle, middle, escape("increments/s" + (scale.log ? " (log scale)" : ""))));
    }

    private void title(Workload workload, int top) {
        String what = workload == Workload.HOT ? "one counter"
                : String.format(Locale.ROOT, "%,d counters, Zipf s=%.1f", workload.keySpace(),
                        Workload.ZIPF_EXPONENT);
        text(LEFT, top + 24, "start", 17, "#111", "Throughput, " + workload.label() + " workload: " + what);
        text(LEFT, top + 43, "start", 12, "#555", caption);
    }

    private void legend(List<String> strategies, double y) {
        double x = LEFT;
        for (String strategy : strategies) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\""
                    + " height=\"12\" fill=\"%s\"/>\n", x, y - 10, colour(strategy)));
            text(x + 17, y, "start", 12, "#222", strategy);
            x += 30 + 7.5 * strategy.length();
        }
    }

    private void axes(Scale scale, double plotTop, double plotBottom) {
        for (double tick : scale.ticks()) {
            double y = scale.y(tick, plotTop, plotBottom);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
                    + " stroke=\"#e3e3e3\"/>\n", LEFT, y, WIDTH - RIGHT, y));
            text(LEFT - 6, y + 4, "end", 11, "#444", compact(tick));
        }
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
                + " stroke=\"#333\"/>\n", LEFT, plotBottom, WIDTH - RIGHT, plotBottom));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
                + " stroke=\"#333\"/>\n", LEFT, plotTop, LEFT, plotBottom));
    }

    private void bar(List<Summary> cells, String strategy, int writers, Scale scale, double x,
            double width, double plotTop, double plotBottom) {
        Summary cell = cells.stream().filter(c -> c.strategy().equals(strategy)
                && c.writers() == writers).findFirst().orElse(null);
        if (cell == null || cell.throughput() <= 0) {
            return;
        }
        double y = scale.y(cell.throughput(), plotTop, plotBottom);
        svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\""
                + " height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>\n", x + 1, y, width - 2,
                plotBottom - y, colour(strategy), escape(strategy + ", " + writers + " writers: "
                        + String.format(Locale.ROOT, "%,.0f", cell.throughput()) + " increments/s")));
        String label = compact(cell.throughput()) + (cell.exact() ? "" : " ✗");
        text(x + width / 2, y - 4, "middle", width < 30 ? 9 : 10,
                cell.exact() ? "#222" : "#c00", label);
    }

    private void text(double x, double y, String anchor, int size, String fill, String content) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\""
                + " font-size=\"%d\" fill=\"%s\">%s</text>\n", x, y, anchor, size, fill,
                escape(content)));
    }

    private String colour(String strategy) {
        String known = COLOURS.get(strategy);
        return known != null ? known
                : SPARE_COLOURS[Math.floorMod(strategy.hashCode(), SPARE_COLOURS.length)];
    }

    /** 950, 3.4k, 71k, 1.2M: short enough to sit above a bar. */
    static String compact(double value) {
        if (value >= 1e6) {
            return trim(value / 1e6) + "M";
        }
        if (value >= 1e3) {
            return trim(value / 1e3) + "k";
        }
        return trim(value);
    }

    private static String trim(double value) {
        return value >= 10 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /** The y axis: linear from 0 in steps of 1, 2 or 5 times a power of ten, or logarithmic. */
    private record Scale(boolean log, double min, double max, double step) {

        static Scale fitting(double[] values) {
            double high = 1;
            double low = Double.MAX_VALUE;
            for (double value : values) {
                if (value > 0) {
                    high = Math.max(high, value);
                    low = Math.min(low, value);
                }
            }
            if (low == Double.MAX_VALUE || high / low <= LOG_SCALE_SPREAD) {
                // Headroom above the tallest bar for its label.
                double step = niceStep(high * 1.12 / 5);
                return new Scale(false, 0, step * Math.ceil(high * 1.12 / step), step);
            }
            // The floor sits a little under the shortest bar, so even that bar stays visible.
            return new Scale(true, niceFloor(low * 0.6),
                    Math.pow(10, Math.ceil(Math.log10(high * 1.5))), 10);
        }

        double y(double value, double plotTop, double plotBottom) {
            double fraction = log
                    ? (Math.log10(value) - Math.log10(min)) / (Math.log10(max) - Math.log10(min))
                    : (value - min) / (max - min);
            return plotBottom - Math.max(0, Math.min(1, fraction)) * (plotBottom - plotTop);
        }

        List<Double> ticks() {
            List<Double> ticks = new ArrayList<>();
            if (log) {
                double decade = Math.pow(10, Math.floor(Math.log10(min)));
                for (; decade <= max * 1.001; decade *= 10) {
                    for (int m : new int[] {1, 2, 5}) {
                        double tick = decade * m;
                        if (tick >= min * 0.999 && tick <= max * 1.001) {
                            ticks.add(tick);
                        }
                    }
                }
            } else {
                for (int i = 0; i * step <= max * 1.001; i++) {
                    ticks.add(i * step);
                }
            }
            return ticks;
        }

        /** 1, 2 or 5 times a power of ten, at most {@code value}. */
        private static double niceFloor(double value) {
            double power = Math.pow(10, Math.floor(Math.log10(value)));
            return value >= 5 * power ? 5 * power : value >= 2 * power ? 2 * power : power;
        }

        /** 1, 2 or 5 times a power of ten, at least {@code rough}. */
        private static double niceStep(double rough) {
            double power = Math.pow(10, Math.floor(Math.log10(rough)));
            for (int m : new int[] {1, 2, 5}) {
                if (m * power >= rough) {
                    return m * power;
                }
            }
            return 10 * power;
        }
    }
}
