package io.slotted.server.cli.progress;

import java.io.PrintStream;
import java.text.DecimalFormat;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Steps as progress bars on a terminal, one bar per step, redrawn in place a few times a second:
 * how far, how fast, and — when the step's size is known — how long is left. A step of unknown
 * size shows what it has done and for how long.
 */
final class BarDisplay implements StepDisplay {
    private static final int REDRAW_MILLIS = 200;

    private final PrintStream terminal;
    private ProgressBar bar;

    BarDisplay(PrintStream terminal) {
        this.terminal = terminal;
    }

    @Override
    public void begin(String step, long total, String unit) {
        finish();
        bar = new ProgressBarBuilder()
                .setTaskName(step)
                .setInitialMax(total)
                .setUnit(" " + unit, 1)
                .showSpeed(new DecimalFormat("#,##0"))
                .setStyle(ProgressBarStyle.UNICODE_BLOCK)
                .setUpdateIntervalMillis(REDRAW_MILLIS)
                .continuousUpdate()
                .setConsumer(new ConsoleProgressBarConsumer(terminal))
                .build();
    }

    @Override
    public void advance(long done) {
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    @Override
    public void finish() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
