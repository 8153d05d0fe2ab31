package io.slotted;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The settings as {@link SlottedCountersBuilder} gathers them, each already checked, with their
 * defaults, from which {@link SlottedConfig} is made. Apart from the builder so that the
 * configuration, which the engine reads, does not reach back to the builder, which makes the
 * engine.
 */
final class Settings {
    static final int DEFAULT_FLUSHERS = 2;
    static final int DEFAULT_NEW_NAMES_PER_SECOND = 10_000;
    static final int DEFAULT_MAX_TYPE_NAMES = 1_000;

    final Map<Integer, Integer> slotsByType = new HashMap<>();
    final Map<Integer, TimeBuckets> bucketsByType = new HashMap<>();
    final Map<Integer, Limits> limitsByType = new HashMap<>();
    final Set<Integer> expiringTypes = new HashSet<>();
    String table = "slotted_counters";
    WriteMode writeMode = WriteMode.GROUPED;
    int maxAttempts = 5;
    Duration retryBackoff = Duration.ofMillis(10);
    int flushers = DEFAULT_FLUSHERS;
    int queueCapacity = 100_000;
    Duration queueFullWait = Duration.ofSeconds(1);
    Duration flushInterval = Duration.ofMillis(200);
    Duration outcomeResolutionTimeout = Duration.ofSeconds(30);
    int newNamesPerSecond = DEFAULT_NEW_NAMES_PER_SECOND;
    int maxTypeNames = DEFAULT_MAX_TYPE_NAMES;
    Duration idempotencyRetention = Duration.ofHours(24);
    Duration rollUpEvery = Duration.ZERO;
    boolean readsIncludeUnwritten;
    Clock clock = Clock.systemUTC();
    Ticker ticker = Ticker.systemTicker();
}
