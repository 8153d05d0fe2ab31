package io.slotted.server.cli.progress;

import io.slotted.Ticker;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Steps as plain lines, for output that is not a terminal (a pipe, a file, a CI log): once a step
 * has run for {@value #AFTER_SECONDS} s, a line every {@value #EVERY_SECONDS} s while it runs — how
 * far, how fast and, when its size is known, how long is left — and one when it ends, with its
 * time. A step that ends sooner prints nothing, so a command refused at once prints its one line of
 * why and nothing else.
 */
final class LineDisplay implements StepDisplay {
    static final int AFTER_SECONDS = 1;
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
    private boolean shown;

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
        this.shown = false;
    }

    @Override
    public void advance(long done) {
        this.done = done;
        long now = ticker.read();
        if (step != null && now - (shown ? printedNanos : startedNanos)
                >= TimeUnit.SECONDS.toNanos(shown ? EVERY_SECONDS : AFTER_SECONDS)) {
            shown = true;
            printedNanos = now;
            print(step + ": " + howFar(now));
        }
    }

    @Override
    public void finish() {
        if (step == null) {
            return;
        }
        long elapsed = ticker.read() - startedNanos;
        if (shown || elapsed >= TimeUnit.SECONDS.toNanos(AFTER_SECONDS)) {
            print(step + ": " + (done > 0 || total > 0 ? count(Math.max(done, 0)) + " " + unit + " in " : "done in ")
                    + seconds(elapsed));
        }
        step = null;
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
