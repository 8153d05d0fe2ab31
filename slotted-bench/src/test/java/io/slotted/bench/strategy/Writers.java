package io.slotted.bench.strategy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Drives a strategy's run as the harness does (one incrementer per writer thread, all writers
 * released at once, each call handed as many counters as the incrementer takes per call) but for a
 * fixed number of calls, so a test knows exactly what the store must hold. Writers are futures: a
 * writer's failure fails the test.
 */
public final class Writers {
    private Writers() {
    }

    /**
     * Runs the writers to the end, then drains the run.
     *
     * @param run the cell's store
     * @param writers how many writer threads
     * @param calls calls per writer, each of the incrementer's
     *     {@link Strategy.Incrementer#incrementsPerCall()} increments
     * @param keySpace record ids run from 1 to this
     * @param seed picks each increment's record id
     * @return what the store must hold: the total of record id {@code i + 1} at index {@code i}
     * @throws Exception if a writer or the drain failed
     */
    public static long[] incrementAndDrain(Strategy.Run run, int writers, int calls, int keySpace, long seed)
            throws Exception {
        long[][] expected = new long[writers][keySpace];
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                long[] mine = expected[w];
                SplittableRandom ids = new SplittableRandom(seed * 1_000_003L + w);
                done.add(threads.submit(() -> {
                    try (Strategy.Incrementer incrementer = run.incrementer()) {
                        long[] batch = new long[incrementer.incrementsPerCall()];
                        go.await();
                        for (int i = 0; i < calls; i++) {
                            for (int j = 0; j < batch.length; j++) {
                                batch[j] = ids.nextInt(keySpace) + 1;
                            }
                            incrementer.incrementEach(batch);
                            for (long recordId : batch) {
                                mine[(int) recordId - 1]++;
                            }
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> writer : done) {
                writer.get();
            }
        } finally {
            threads.shutdownNow();
        }
        run.drain();
        return sum(expected, keySpace);
    }

    private static long[] sum(long[][] perWriter, int keySpace) {
        long[] total = new long[keySpace];
        for (long[] writer : perWriter) {
            for (int i = 0; i < keySpace; i++) {
                total[i] += writer[i];
            }
        }
        return total;
    }
}
