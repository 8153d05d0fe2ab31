package io.slotted.server.cli.progress;

import io.slotted.Ticker;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Steps as plain lines, for output that is not a terminal (a pipe, a file, a CI log): a line when
 * a step begins, one every {@value #EVERY_SECONDS} seconds while it runs — how far, how fast and,
 * when its size is known, how long is left — and one when it ends, with its time.
 */
final class LineDisplay implements StepDisplay {
    static final int EVERY_SECONDS = 2;

    private final String command;
    private final PrintWriter out;
    private final Ticker ticker;
    private String step;
    private long total;
    private String unit;
    private long done;
    private long startedNanos;
    private long printedNanos;

    LineDisplay(String command, PrintWriter out, Ticker ticker) {
        this.command = command;
        this.out = out;
        this.ticker = ticker;
    }

    @Override
    public void begin(String step, long total, String unit) {
        finish();
        this.step = step;
        this.total = total;
        this.unit = unit;
        this.done = 0;
        this.startedNanos = ticker.read();
        this.printedNanos = startedNanos;
        print(step + (total >= 0 ? ": " + count(total) + " " + unit : "") + "…");
    }

    @Override
    public void advance(long done) {
        this.done = done;
        long now = ticker.read();
        if (step != null && now - printedNanos >= TimeUnit.SECONDS.toNanos(EVERY_SECONDS)) {
            printedNanos = now;
            print(step + ": " + howFar(now));
        }
    }

    @Override
    public void finish() {
        if (step != null) {
            long now = ticker.read();
            print(step + ": " + (done > 0 || total > 0 ? count(Math.max(done, 0)) + " " + unit + " in " : "done in ")
                    + seconds(now - startedNanos));
            step = null;
        }
    }

    private String howFar(long now) {
        double elapsed = (now - startedNanos) / 1e9;
        double rate = elapsed > 0 ? done / elapsed : 0;
        StringBuilder line = new StringBuilder(count(done));
        if (total > 0) {
            line.append(" of ").append(count(total));
        }
        line.append(' ').append(unit);
        line.append(" (");
        if (total > 0) {
            line.append(String.format(Locale.ROOT, "%d%%, ", 100 * done / total));
        }
        line.append(count(Math.round(rate))).append("/s");
        if (total > 0 && rate > 0) {
            line.append(", about ").append(seconds((long) ((total - done) / rate * 1e9))).append(" left");
        }
        return line.append(')').toString();
    }

    private void print(String line) {
        out.println(command + ": " + line);
        out.flush();
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
