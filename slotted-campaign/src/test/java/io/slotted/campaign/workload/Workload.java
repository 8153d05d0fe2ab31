package io.slotted.campaign.workload;

import io.slotted.ExpiryRule;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.History;
import io.slotted.campaign.history.Invocation;
import io.slotted.campaign.history.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The campaign's clients: each a thread with a random generator of its own, drawn from the seed,
 * sending a mix of operations to the processes and recording each in the history.
 *
 * <p>Increments carry distinct random deltas, so that the final check's subset sums tell a double
 * count from a lost increment. Keyed increments are replayed: at once through the same or the
 * other process, concurrently with the original through the other, or later — after faults,
 * restarts and crashes — by whichever client draws a replay next. Stock is sold with {@code
 * tryAdd} against a lower limit of 0, and restocked, so that the bound is met often. Counters
 * rolled up into an owner column, in fold and in copy mode, are incremented, read and set while
 * every process's roller runs; sets wait until no other operation on their counter is under way.
 */
public final class Workload implements AutoCloseable {
    /** How long a client waits for an operation before it gives up and records it as never answered. */
    public static final long ANSWER_WITHIN_SECONDS = 120;

    private final History history;
    private final List<LibraryProcess> processes;
    private final long seed;
    private final AtomicLong keys = new AtomicLong();
    private final AtomicLong latestExpiry = new AtomicLong();
    /** Runs the library's blocking calls, so that a client can stop waiting for one. */
    private final ExecutorService calls = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "campaign-call");
        thread.setDaemon(true);
        return thread;
    });
    /** Keyed increments sent once, waiting to be replayed later: key, counter and delta. */
    private final ConcurrentLinkedQueue<KeyedIncrement> toReplay = new ConcurrentLinkedQueue<>();
    /** Keeps every other operation on a counter away from its sets. */
    private final SetGuard sets = new SetGuard(CampaignTypes.SETTABLE);

    private record KeyedIncrement(String key, Counter counter, long delta) {
    }

    private final ReleaseCycles releases;
    private final Recounts recounts;

    public Workload(History history, List<LibraryProcess> processes, ReleaseCycles releases, Recounts recounts,
            long seed) {
        this.history = history;
        this.processes = processes;
        this.releases = releases;
        this.recounts = recounts;
        this.seed = seed;
    }

    /** Runs client {@code index} until {@code running} turns false. */
    public void runClient(int index, BooleanSupplier running) {
        Random random = new Random(seed * 1_000_003L + index);
        while (running.getAsBoolean()) {
            runOne(random);
        }
    }

    private void runOne(Random random) {
        LibraryProcess process = processes.get(random.nextInt(processes.size()));
        int draw = random.nextInt(100);
        if (draw < 16) {
            if (random.nextInt(5) == 0 && !CampaignTypes.nearAnExpiry()) {
                add(keepingLimits(process, random), expiring(random), delta(random));
            } else {
                add(process, unbounded(random), delta(random));
            }
        } else if (draw < 22) {
            releasable(process, random, draw < 20);
        } else if (draw < 25) {
            Counter counter = CampaignTypes.RECOUNTED_COUNTERS.get(random.nextInt(CampaignTypes.RECOUNTED_COUNTERS
                    .size()));
            if (random.nextInt(3) == 0) {
                read(process, counter);
            } else {
                long delta = delta(random);
                recounts.add(process, counter, delta, history.invoke(process.name(), Kind.ADD, Map.of(counter, delta),
                        null));
            }
        } else if (draw < 31) {
            addKeyed(random, process);
        } else if (draw < 40) {
            if (random.nextInt(4) == 0 && !CampaignTypes.nearAnExpiry()) {
                addAndGet(keepingLimits(process, random), expiring(random), delta(random));
            } else {
                addAndGet(process, unbounded(random), delta(random));
            }
        } else if (draw < 45) {
            batch(process, random);
        } else if (draw < 63) {
            int which = random.nextInt(10);
            if (which == 4) {
                expire(keepingLimits(process, random), expiring(random));
            } else {
                read(process, which < 2 ? stock(random) : which == 2 ? quota(random) : which == 3 ? expiring(random)
                        : unbounded(random));
            }
        } else if (draw < 76) {
            sell(keepingLimits(process, random), stock(random), 1 + random.nextInt(40));
        } else if (draw < 85) {
            // A little less than the sales take.
            add(keepingLimits(process, random), stock(random), 1 + random.nextInt(60));
        } else if (draw < 92) {
            // Charges twice as often as refunds, a little larger: the quota stays full, refusing.
            boolean refund = random.nextInt(3) == 0;
            decide(keepingLimits(process, random), refund ? Kind.REFUND : Kind.CHARGE, quota(random),
                    refund ? -(1 + random.nextInt(30)) : 1 + random.nextInt(40));
        } else if (draw < 97) {
            set(process, settable(random), delta(random));
        } else {
            setRacing(process, processes.get(random.nextInt(processes.size())), settable(random), delta(random),
                    delta(random));
        }
    }

    /**
     * An increment or a read of a counter of the copy-mode type released cycle after cycle, never
     * during a release; between a release and the next cycle, of another counter.
     */
    private void releasable(LibraryProcess process, Random random, boolean increment) {
        try (SetGuard.Held notDuringARelease = releases.operation()) {
            Counter counter = Objects.requireNonNullElseGet(releases.pick(random), () -> unbounded(random));
            if (increment) {
                add(process, counter, delta(random));
            } else {
                read(process, counter);
            }
        }
    }

    private static Counter expiring(Random random) {
        return CampaignTypes.EXPIRING_COUNTERS.get(random.nextInt(CampaignTypes.EXPIRING_COUNTERS.size()));
    }

    /**
     * Gives an expiring counter an expiry, if it has none, at the next point of the grid at least
     * 300 ms away, so that expiries fall while increments of the counter are under way.
     * Processes in {@code BUFFERED} mode neither write nor expire these counters: their callers are
     * answered before their increments are written, so no moment of the answer tells which side
     * of a clearing an increment falls on.
     */
    private void expire(LibraryProcess process, Counter counter) {
        long at = CampaignTypes.nextExpiry();
        latestExpiry.accumulateAndGet(at, Math::max);
        Invocation invocation = history.invoke(process.name(), Kind.EXPIRE,
                Map.of(counter, history.fromWallMillis(at)), null);
        await(invocation, blocking(() -> counters(process).expiry().expireAt(counter.type(), counter.id(),
                Instant.ofEpochMilli(at), ExpiryRule.IF_NONE)), invocation::okApplied);
    }

    /**
     * The latest time any expiry was given for, in wall-clock milliseconds: the final values are
     * read once it has passed, so that no expiry falls after them.
     */
    public long latestExpiry() {
        return latestExpiry.get();
    }

    private static Counter hot(Random random) {
        return CampaignTypes.HOT_COUNTERS.get(random.nextInt(CampaignTypes.HOT_COUNTERS.size()));
    }

    /** Any counter without limits: hot, rolled up in either mode, or bucketed. */
    private static Counter unbounded(Random random) {
        return CampaignTypes.UNBOUNDED.get(random.nextInt(CampaignTypes.UNBOUNDED.size()));
    }

    private static Counter stock(Random random) {
        return CampaignTypes.STOCK_COUNTERS.get(random.nextInt(CampaignTypes.STOCK_COUNTERS.size()));
    }

    private static Counter quota(Random random) {
        return CampaignTypes.QUOTA_COUNTERS.get(random.nextInt(CampaignTypes.QUOTA_COUNTERS.size()));
    }

    /** A delta from 1 to a million: drawn at random, they are distinct in practice. */
    private static long delta(Random random) {
        return 1 + random.nextInt(1_000_000);
    }

    private void add(LibraryProcess process, Counter counter, long delta) {
        try (SetGuard.Held held = sets.shared(List.of(counter))) {
            Invocation invocation = history.invoke(process.name(), counter.type() == CampaignTypes.STOCK
                    ? Kind.RESTOCK : Kind.ADD, Map.of(counter, delta), null);
            await(invocation, () -> counters(process).addAsync(counter.type(), counter.id(), delta),
                    result -> invocation.ok());
        }
    }

    private void addAndGet(LibraryProcess process, Counter counter, long delta) {
        try (SetGuard.Held held = sets.shared(List.of(counter))) {
            Invocation invocation = history.invoke(process.name(), Kind.ADD_AND_GET, Map.of(counter, delta), null);
            await(invocation, () -> counters(process).addAndGetAsync(counter.type(), counter.id(), delta),
                    total -> invocation.ok(Map.of(counter, total)));
        }
    }

    /**
     * A keyed increment and its replays: at once through the same or another process, at the
     * same time through another, or later by whichever client draws a replay.
     */
    private void addKeyed(Random random, LibraryProcess process) {
        KeyedIncrement replay = random.nextBoolean() ? toReplay.poll() : null;
        if (replay != null) {
            sendKeyed(process, replay);
            return;
        }
        KeyedIncrement increment = new KeyedIncrement("s" + seed + "-k" + keys.incrementAndGet(), hot(random),
                delta(random));
        switch (random.nextInt(4)) {
            case 0 -> {
                sendKeyed(process, increment);
                sendKeyed(other(random, process), increment);
            }
            case 1 -> {
                CompletableFuture<Void> first = CompletableFuture.runAsync(() -> sendKeyed(process, increment), calls);
                sendKeyed(other(random, process), increment);
                first.join();
            }
            default -> {
                sendKeyed(process, increment);
                toReplay.add(increment);
            }
        }
    }

    /** {@code process}, or another when it keeps no limits (the buffered one), for the stock. */
    private LibraryProcess keepingLimits(LibraryProcess process, Random random) {
        LibraryProcess chosen = process;
        while (!chosen.keepsLimits()) {
            chosen = processes.get(random.nextInt(processes.size()));
        }
        return chosen;
    }

    private LibraryProcess other(Random random, LibraryProcess process) {
        if (processes.size() == 1) {
            return process;
        }
        LibraryProcess other;
        do {
            other = processes.get(random.nextInt(processes.size()));
        } while (other == process);
        return other;
    }

    private void sendKeyed(LibraryProcess process, KeyedIncrement increment) {
        Counter counter = increment.counter();
        Invocation invocation = history.invoke(process.name(), Kind.ADD_KEYED, Map.of(counter, increment.delta()),
                increment.key());
        await(invocation, () -> counters(process).addAsync(counter.type(), counter.id(), increment.delta(),
                increment.key()), invocation::okApplied);
    }

    /**
     * Two or three counters, all or nothing, in one of four ways: {@code addAll};
     * {@code addAllAndGet}, whose totals are checked as reads; {@code addAll} with an idempotency
     * key, replayed through another process (of hot counters only, which are never set); or the
     * caller's own transaction, each increment added on its connection and committed with it.
     */
    private void batch(LibraryProcess process, Random random) {
        int way = random.nextInt(4);
        List<Counter> counters = new ArrayList<>(way == 2 ? CampaignTypes.HOT_COUNTERS : CampaignTypes.UNBOUNDED);
        java.util.Collections.shuffle(counters, random);
        Map<Counter, Long> deltas = new java.util.LinkedHashMap<>();
        List<Increment> increments = new ArrayList<>();
        for (Counter counter : counters.subList(0, 2 + random.nextInt(2))) {
            long delta = delta(random);
            deltas.put(counter, delta);
            increments.add(new Increment(counter.type(), counter.id(), delta));
        }
        try (SetGuard.Held held = sets.shared(deltas.keySet())) {
            switch (way) {
                case 0 -> {
                    Invocation invocation = history.invoke(process.name(), Kind.BATCH, deltas, null);
                    await(invocation, blocking(() -> counters(process).addAll(increments)), applied -> invocation.ok());
                }
                case 1 -> {
                    Invocation invocation = history.invoke(process.name(), Kind.BATCH, deltas, null);
                    await(invocation, blocking(() -> counters(process).addAllAndGet(increments)),
                            totals -> invocation.ok(totalsOf(increments, totals)));
                }
                case 2 -> {
                    String key = "s" + seed + "-b" + keys.incrementAndGet();
                    sendKeyedBatch(process, deltas, increments, key);
                    sendKeyedBatch(other(random, process), deltas, increments, key);
                }
                default -> inCallersTransaction(process, deltas, increments);
            }
        }
    }

    private static Map<Counter, Long> totalsOf(List<Increment> increments, List<Long> totals) {
        Map<Counter, Long> values = new java.util.HashMap<>();
        for (int i = 0; i < increments.size(); i++) {
            values.put(new Counter(increments.get(i).recordType(), increments.get(i).recordId()), totals.get(i));
        }
        return values;
    }

    private void sendKeyedBatch(LibraryProcess process, Map<Counter, Long> deltas, List<Increment> increments,
            String key) {
        Invocation invocation = history.invoke(process.name(), Kind.BATCH, deltas, key);
        await(invocation, blocking(() -> counters(process).addAll(increments, key)), invocation::okApplied);
    }

    /**
     * The increments added on the caller's own connection and committed with its transaction: a
     * failure before the COMMIT rolled everything back; one during it leaves the outcome unknown.
     */
    private void inCallersTransaction(LibraryProcess process, Map<Counter, Long> deltas, List<Increment> increments) {
        CallersTransaction.commit(process, history.invoke(process.name(), Kind.BATCH, deltas, null), connection -> {
            for (Increment increment : increments) {
                counters(process).add(connection, increment.recordType(), increment.recordId(), increment.delta());
            }
        });
    }

    private void read(LibraryProcess process, Counter counter) {
        try (SetGuard.Held held = sets.shared(List.of(counter))) {
            Invocation invocation = history.invoke(process.name(), Kind.READ, Map.of(), null);
            try {
                long value = blocking(() -> counters(process).get(counter.type(), counter.id())).get()
                        .get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS);
                invocation.ok(Map.of(counter, value));
            } catch (java.util.concurrent.TimeoutException e) {
                Stalls.report(invocation); // left open: the history records it as never answered
            } catch (Exception e) {
                Outcomes.endRead(invocation, e);
            }
        }
    }

    /**
     * Sets a counter while no other operation on it is under way, so that the checker knows
     * which acknowledged increments it replaced. Increments whose outcome stayed unknown may
     * still land on either side of it.
     */
    private void set(LibraryProcess process, Counter counter, long value) {
        try (SetGuard.Held held = sets.exclusive(counter)) {
            Invocation invocation = history.invoke(process.name(), Kind.SET, Map.of(counter, value), null);
            await(invocation, blocking(() -> {
                counters(process).admin().set(counter.type(), counter.id(), value);
                return null;
            }), done -> invocation.ok());
        }
    }

    /**
     * Two sets of one counter at once, from two processes (or two connections of one), while no
     * other operation on it is under way: it must end at one of the two values, never at their sum.
     */
    private void setRacing(LibraryProcess one, LibraryProcess other, Counter counter, long value, long otherValue) {
        try (SetGuard.Held held = sets.exclusive(counter)) {
            Invocation first = history.invoke(one.name(), Kind.SET, Map.of(counter, value), null);
            Invocation second = history.invoke(other.name(), Kind.SET, Map.of(counter, otherValue), null);
            CompletableFuture<Void> firstSent = sendSet(first, one, counter, value);
            CompletableFuture<Void> secondSent = sendSet(second, other, counter, otherValue);
            await(first, () -> firstSent, done -> first.ok());
            await(second, () -> secondSent, done -> second.ok());
        }
    }

    /** A set on its way; one refused before it was sent ends like its future would. */
    private CompletableFuture<Void> sendSet(Invocation invocation, LibraryProcess process, Counter counter,
            long value) {
        try {
            return blocking(() -> {
                counters(process).admin().set(counter.type(), counter.id(), value);
                return (Void) null;
            }).get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static Counter settable(Random random) {
        return CampaignTypes.SETTABLE.get(random.nextInt(CampaignTypes.SETTABLE.size()));
    }

    private void sell(LibraryProcess process, Counter counter, long amount) {
        decide(process, Kind.SELL, counter, -amount);
    }

    /** An increment the counter's limits may refuse: a refusal is a failure, surely nothing applied. */
    private void decide(LibraryProcess process, Kind kind, Counter counter, long delta) {
        Invocation invocation = history.invoke(process.name(), kind, Map.of(counter, delta), null);
        await(invocation, blocking(() -> counters(process).tryAdd(counter.type(), counter.id(), delta)), applied -> {
                    if (applied) {
                        invocation.ok();
                    } else {
                        invocation.failed(new IllegalStateException("refused by the limits"));
                    }
                });
    }

    private static SlottedCounters counters(LibraryProcess process) {
        return process.counters();
    }

    /** A blocking call of the library, run so that its caller can stop waiting for it. */
    private <T> Supplier<CompletableFuture<T>> blocking(Supplier<T> call) {
        return () -> CompletableFuture.supplyAsync(call, calls);
    }

    /**
     * Sends an operation and waits for its answer, within a bound: one that never comes leaves it
     * open. A call refused before it returns a future (the counters closed) ends like its future would.
     */
    private static <T> void await(Invocation invocation, Supplier<CompletableFuture<T>> send, Consumer<T> onAnswer) {
        try {
            onAnswer.accept(send.get().get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS));
        } catch (java.util.concurrent.TimeoutException e) {
            Stalls.report(invocation); // left open: the history records it as never answered
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            Outcomes.endWrite(invocation, e);
        }
    }

    /** Stops the threads that ran the library's blocking calls. */
    @Override
    public void close() {
        calls.shutdownNow();
    }
}
