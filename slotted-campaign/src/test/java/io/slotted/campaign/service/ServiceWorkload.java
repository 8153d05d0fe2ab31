package io.slotted.campaign.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.History;
import io.slotted.campaign.history.Invocation;
import io.slotted.campaign.history.Kind;
import io.slotted.campaign.workload.CampaignTypes;
import io.slotted.campaign.workload.SetGuard;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * The service campaign's clients: each a thread with a random generator of its own, drawn from the
 * seed, sending a mix of operations to the service processes over HTTP and the Redis protocol and
 * recording each in the history, under the name of the process and the front end
 * ({@code s1/http}, {@code s2/resp}). What each answer means is {@link ServiceOutcomes}'.
 *
 * <table>
 *   <caption>The operations</caption>
 *   <tr><th>kind</th><th>how</th><th>share</th></tr>
 *   <tr><td>ADD</td><td>HTTP increment of a hot counter by a random delta</td><td>20%</td></tr>
 *   <tr><td>SET, ADD, ADD_AND_GET, READ</td><td>of a counter that is set now and then: {@code PUT} over
 *       HTTP or {@code SET} (a fifth of these), {@code DEL} (a tenth), an increment over either front end
 *       (two fifths), a read (the rest); a set waits until nothing else is under way on its counter, so the
 *       checker knows which increments it replaced</td><td>5%</td></tr>
 *   <tr><td>ADD_KEYED</td><td>HTTP increment with an {@code Idempotency-Key}, replayed at once through
 *       the other process, concurrently through it, or later by whichever client draws a replay</td>
 *       <td>10%</td></tr>
 *   <tr><td>ADD_AND_GET</td><td>{@code INCRBY}: the total right after its commit; one in four of a counter
 *       that expires, except near an expiry</td><td>10%</td></tr>
 *   <tr><td>BATCH</td><td>2 or 3 hot counters, and a sale from a stock one time in four, all or
 *       nothing: {@code POST /v1/increments}, or {@code MULTI} … {@code EXEC}, which answers each
 *       total</td><td>5%</td></tr>
 *   <tr><td>READ, EXPIRE</td><td>{@code GET} of a hot counter, a stock or a counter that expires, over either
 *       front end; or (one in ten) {@code PEXPIREAT … NX} of a counter that expires, at the next point of
 *       the expiry grid</td><td>18%</td></tr>
 *   <tr><td>SELL</td><td>−1 to −40 from a stock whose limits are 0.., over HTTP (409
 *       {@code limit_exceeded}) or {@code DECRBY} ({@code -ERR limit exceeded}, or the total)</td>
 *       <td>20%</td></tr>
 *   <tr><td>RESTOCK</td><td>+1 to +60, over either front end</td><td>12%</td></tr>
 * </table>
 *
 * <p>Deltas are drawn large and at random, so they are distinct in practice and a subset sum tells
 * a double count from a lost increment. Restocks add a little less than sales take, so the
 * stock keeps falling to 0 and the limit refuses sales all the time. A client that could not connect (its process is down or
 * starting) records the operation as failed, never sent, and waits a little before the next.
 */
final class ServiceWorkload implements AutoCloseable {
    /** How long a client waits after a request that could not connect, so as not to spin while a process starts. */
    private static final long BACK_OFF_MILLIS = 200;

    private final History history;
    private final List<ServiceProcess> processes;
    private final long seed;
    private final AtomicLong keys = new AtomicLong();
    private final AtomicLong latestExpiry = new AtomicLong();
    /** Sends the concurrent replays of keyed increments. */
    private final ExecutorService replays = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "service-campaign-replay");
        thread.setDaemon(true);
        return thread;
    });
    /** Keyed increments sent once, waiting to be replayed later: key, counter and delta. */
    private final ConcurrentLinkedQueue<KeyedIncrement> toReplay = new ConcurrentLinkedQueue<>();
    /** Keeps every other operation on a counter away from its sets. */
    private final SetGuard sets = new SetGuard(CampaignTypes.RESET_COUNTERS);

    private record KeyedIncrement(String key, Counter counter, long delta) {
    }

    ServiceWorkload(History history, List<ServiceProcess> processes, long seed) {
        this.history = history;
        this.processes = processes;
        this.seed = seed;
    }

    /** Runs client {@code index} until {@code running} turns false. */
    void runClient(int index, BooleanSupplier running) {
        Random random = new Random(seed * 1_000_003L + index);
        try (RespCalls resp = new RespCalls()) {
            while (running.getAsBoolean()) {
                ServiceProcess process = processes.get(random.nextInt(processes.size()));
                boolean overResp = random.nextBoolean();
                int draw = random.nextInt(100);
                if (draw < 20) {
                    add(process, Kind.ADD, hot(random), delta(random), false, resp);
                } else if (draw < 25) {
                    resettable(process, random, overResp, resp);
                } else if (draw < 35) {
                    addKeyed(random, process);
                } else if (draw < 45) {
                    boolean expiring = random.nextInt(4) == 0 && !CampaignTypes.nearAnExpiry();
                    add(process, Kind.ADD_AND_GET, expiring ? expiring(random) : hot(random), delta(random), true, resp);
                } else if (draw < 50) {
                    batch(process, random, overResp, resp);
                } else if (draw < 68) {
                    int which = random.nextInt(10);
                    if (which == 0) {
                        expire(process, expiring(random), resp);
                    } else {
                        read(process, which < 3 ? stock(random) : which == 3 ? expiring(random) : hot(random), overResp,
                                resp);
                    }
                } else if (draw < 88) {
                    add(process, Kind.SELL, stock(random), -(1 + random.nextInt(40)), overResp, resp);
                } else {
                    add(process, Kind.RESTOCK, stock(random), 1 + random.nextInt(60), overResp, resp);
                }
            }
        }
    }

    private static Counter hot(Random random) {
        return CampaignTypes.HOT_COUNTERS.get(random.nextInt(CampaignTypes.HOT_COUNTERS.size()));
    }

    private static Counter expiring(Random random) {
        return CampaignTypes.EXPIRING_COUNTERS.get(random.nextInt(CampaignTypes.EXPIRING_COUNTERS.size()));
    }

    /**
     * {@code PEXPIREAT … NX} of an expiring counter, at the next point of the expiry grid, as the
     * library's campaign gives them ({@link io.slotted.campaign.workload.Workload}).
     */
    private void expire(ServiceProcess process, Counter counter, RespCalls resp) {
        long at = CampaignTypes.nextExpiry();
        latestExpiry.accumulateAndGet(at, Math::max);
        Invocation invocation = history.invoke(process.name() + "/resp", Kind.EXPIRE,
                Map.of(counter, history.fromWallMillis(at)), null);
        try {
            invocation.okApplied(resp.expireAt(process, counter, at));
        } catch (Exception e) {
            endWrite(invocation, e);
        }
    }

    /** The latest time any expiry was given for, in wall-clock milliseconds. */
    long latestExpiry() {
        return latestExpiry.get();
    }

    private static Counter stock(Random random) {
        return CampaignTypes.STOCK_COUNTERS.get(random.nextInt(CampaignTypes.STOCK_COUNTERS.size()));
    }

    /** A delta from 1 to a million: drawn at random, they are distinct in practice. */
    private static long delta(Random random) {
        return 1 + random.nextInt(1_000_000);
    }

    /**
     * An operation on a counter that is set now and then: a set ({@code PUT} or {@code SET}), a
     * {@code DEL}, an increment or a read. A set or {@code DEL} waits until no other operation on
     * its counter is under way, and holds them off until answered.
     */
    private void resettable(ServiceProcess process, Random random, boolean overResp, RespCalls resp) {
        Counter counter = CampaignTypes.RESET_COUNTERS.get(random.nextInt(CampaignTypes.RESET_COUNTERS.size()));
        int draw = random.nextInt(10);
        if (draw < 3) {
            long value = draw == 2 ? 0 : delta(random);
            boolean del = draw == 2;
            try (SetGuard.Held held = sets.exclusive(counter)) {
                Invocation invocation = history.invoke(process.name() + (overResp || del ? "/resp" : "/http"),
                        Kind.SET, Map.of(counter, value), null);
                try {
                    if (del) {
                        resp.del(process, counter);
                    } else if (overResp) {
                        resp.set(process, counter, value);
                    } else {
                        HttpCalls.set(process, counter, value);
                    }
                    invocation.ok();
                } catch (Exception e) {
                    endWrite(invocation, e);
                }
            }
            return;
        }
        try (SetGuard.Held held = sets.shared(List.of(counter))) {
            if (draw < 7) {
                add(process, overResp ? Kind.ADD_AND_GET : Kind.ADD, counter, delta(random), overResp, resp);
            } else {
                read(process, counter, overResp, resp);
            }
        }
    }

    /**
     * One increment without a key: over HTTP, or {@code INCRBY}/{@code DECRBY}, whose answer is the
     * total right after it. A sale the limits refuse is answered as failed either way.
     */
    private void add(ServiceProcess process, Kind kind, Counter counter, long delta, boolean overResp,
            RespCalls resp) {
        Invocation invocation = history.invoke(process.name() + (overResp ? "/resp" : "/http"), kind,
                Map.of(counter, delta), null);
        try {
            if (overResp) {
                invocation.ok(Map.of(counter, resp.incrBy(process, counter, delta)));
            } else {
                HttpCalls.increment(process, counter, delta, null);
                invocation.ok();
            }
        } catch (Exception e) {
            endWrite(invocation, e);
        }
    }

    /**
     * A keyed increment and its replays, over HTTP: at once through the other process, at the
     * same time through the other, or later by whichever client draws a replay.
     */
    private void addKeyed(Random random, ServiceProcess process) {
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
                sendKeyed(other(process), increment);
            }
            case 1 -> {
                CompletableFuture<Void> first = CompletableFuture.runAsync(() -> sendKeyed(process, increment),
                        replays);
                sendKeyed(other(process), increment);
                first.join();
            }
            default -> {
                sendKeyed(process, increment);
                toReplay.add(increment);
            }
        }
    }

    private ServiceProcess other(ServiceProcess process) {
        return processes.stream().filter(candidate -> candidate != process).findFirst().orElse(process);
    }

    private void sendKeyed(ServiceProcess process, KeyedIncrement increment) {
        Invocation invocation = history.invoke(process.name() + "/http", Kind.ADD_KEYED,
                Map.of(increment.counter(), increment.delta()), increment.key());
        try {
            JsonNode answer = HttpCalls.increment(process, increment.counter(), increment.delta(), increment.key());
            if (answer.path("replayed").isBoolean()) {
                invocation.okApplied(!answer.get("replayed").asBoolean());
            } else {
                invocation.ok();
            }
        } catch (Exception e) {
            endWrite(invocation, e);
        }
    }

    /** Two or three hot counters, and a sale one time in four, all or nothing. */
    private void batch(ServiceProcess process, Random random, boolean overResp, RespCalls resp) {
        List<Counter> hot = new ArrayList<>(CampaignTypes.HOT_COUNTERS);
        Collections.shuffle(hot, random);
        Map<Counter, Long> deltas = new LinkedHashMap<>();
        hot.subList(0, 2 + random.nextInt(2)).forEach(counter -> deltas.put(counter, delta(random)));
        if (random.nextInt(4) == 0) {
            deltas.put(stock(random), -(1L + random.nextInt(40)));
        }
        Invocation invocation = history.invoke(process.name() + (overResp ? "/resp" : "/http"), Kind.BATCH, deltas,
                null);
        try {
            if (overResp) {
                invocation.ok(resp.exec(process, deltas));
            } else {
                HttpCalls.batch(process, deltas);
                invocation.ok();
            }
        } catch (Exception e) {
            endWrite(invocation, e);
        }
    }

    private void read(ServiceProcess process, Counter counter, boolean overResp, RespCalls resp) {
        Invocation invocation = history.invoke(process.name() + (overResp ? "/resp" : "/http"), Kind.READ, Map.of(),
                null);
        try {
            invocation.ok(Map.of(counter, overResp ? resp.get(process, counter) : HttpCalls.read(process, counter)));
        } catch (Exception e) {
            restoreInterrupt(e);
            ServiceOutcomes.endRead(invocation, e);
            backOffIfNeverSent(e);
        }
    }

    private static void endWrite(Invocation invocation, Exception e) {
        restoreInterrupt(e);
        ServiceOutcomes.endWrite(invocation, e);
        backOffIfNeverSent(e);
    }

    private static void restoreInterrupt(Exception e) {
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
    }

    private static void backOffIfNeverSent(Exception e) {
        if (!ServiceOutcomes.neverSent(e) || Thread.currentThread().isInterrupted()) {
            return;
        }
        try {
            Thread.sleep(BACK_OFF_MILLIS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the threads that sent concurrent replays. */
    @Override
    public void close() {
        replays.shutdownNow();
    }
}
