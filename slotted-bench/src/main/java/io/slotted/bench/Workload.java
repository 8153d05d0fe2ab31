package io.slotted.bench;

import java.util.function.LongSupplier;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.rng.sampling.distribution.DiscreteSampler;
import org.apache.commons.rng.sampling.distribution.RejectionInversionZipfSampler;

/**
 * Which counters the writers increment.
 *
 * <p>{@link #HOT} is the worst case the project exists for: every writer on one counter. {@link #ZIPF}
 * is closer to real traffic (downloads per repository, views per page): 100,000 counters whose
 * popularity follows Zipf's law with exponent 1.1, so the top counter takes about 13% of the
 * increments, the top hundred about 58%, and a long tail is touched a few times each. Each writer
 * draws from its own seeded generator, so a run is repeatable and writers share no state.
 */
public enum Workload {
    /** One counter, every writer on it. */
    HOT(1),
    /** 100,000 counters, Zipf-skewed with exponent {@value #ZIPF_EXPONENT}. */
    ZIPF(100_000);

    /** Zipf's exponent for {@link #ZIPF}: web popularity is usually measured between 0.8 and 1.2. */
    public static final double ZIPF_EXPONENT = 1.1;

    private final int keySpace;

    Workload(int keySpace) {
        this.keySpace = keySpace;
    }

    /**
     * The number of counters; record ids run from 1 to this.
     *
     * @return the key space size
     */
    public int keySpace() {
        return keySpace;
    }

    /**
     * The record ids one writer increments, in order.
     *
     * @param seed the run's seed
     * @param writer the writer's index, so that writers draw different sequences
     * @return an endless supply of record ids in {@code [1, keySpace()]}; not thread-safe
     */
    public LongSupplier recordIds(long seed, int writer) {
        if (this == HOT) {
            return () -> 1L;
        }
        DiscreteSampler zipf = RejectionInversionZipfSampler.of(
                RandomSource.XO_RO_SHI_RO_128_PP.create(seed * 1_000_003L + writer), keySpace,
                ZIPF_EXPONENT);
        return zipf::sample;
    }

    /**
     * The name used on the command line and in results.
     *
     * @return {@code hot} or {@code zipf}
     */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
