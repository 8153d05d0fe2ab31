package io.slotted;

import java.util.Arrays;
import java.util.Random;

/** Ids from 0 to n - 1 drawn from a Zipf distribution (s = 1): a few hot, many cold. */
final class Zipf {
    private final double[] cumulative;

    Zipf(int n) {
        cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1.0 / (k + 1);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cumulative[k] /= sum;
        }
    }

    long next(Random random) {
        int at = Arrays.binarySearch(cumulative, random.nextDouble());
        return Math.min(cumulative.length - 1, at >= 0 ? at : -at - 1);
    }
}
