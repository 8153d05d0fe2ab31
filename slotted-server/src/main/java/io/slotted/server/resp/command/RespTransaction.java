package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.slotted.Increment;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import io.slotted.server.store.AsyncCounters;
import io.slotted.server.store.WriteGate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The commands a connection queued between {@code MULTI} and {@code EXEC}, and how {@code EXEC}
 * runs them: all the increments as one batch, applied all or nothing in one transaction, and
 * every answer as if the queued commands had run alone, one after another. Expiry commands run
 * after the batch, in the order queued.
 *
 * <p>The batch answers each counter's total at its end, read in its own transaction before COMMIT
 * ({@link io.slotted.SlottedCounters#addAllAndGet}). Walking the queue back from its end, a
 * command's answer is then its counter's total less what the commands after it add: an increment
 * sees the increments queued before it and not those after, and so does a read. Counters the batch
 * does not touch are read after it commits. A command refused while queueing (an unknown command,
 * a bad key or number, a missing scope) is answered at once and makes the {@code EXEC} fail with
 * {@code -EXECABORT}, as Redis does; nothing is applied then.
 */
final class RespTransaction {
    /** The most commands one {@code MULTI} may queue, as many as one HTTP batch may hold. */
    static final int MAX_QUEUED = 10_000;

    private static final RedisMessage QUEUED = new SimpleStringRedisMessage("QUEUED");

    private final List<Object> queued = new ArrayList<>();
    private boolean aborted;

    /**
     * Queues a counter command or a fixed answer ({@code PING}, {@code ECHO}).
     *
     * @param command a {@link CounterCall} that reads or increments, an {@link ExpiryCall}, or a
     *     {@link RedisMessage}
     * @throws RespError if the queue is full
     */
    void queue(Object command) {
        if (queued.size() == MAX_QUEUED) {
            throw new RespError("ERR a MULTI holds at most " + MAX_QUEUED + " commands: split them"
                    + " into several transactions");
        }
        queued.add(command);
    }

    /** Marks the transaction as failed: a command could not be queued. */
    void abort() {
        aborted = true;
    }

    boolean aborted() {
        return aborted;
    }

    /**
     * Runs the queued commands.
     *
     * @param counters where the batch is written and the other counters read
     * @param naming how the queued keys name counters
     * @param gate passed right before the batch is handed to the library
     * @return an array of the answers, in the order queued; or one error if the batch failed, in
     *     which case nothing was applied (unless the error says otherwise)
     */
    CompletableFuture<RedisMessage> exec(AsyncCounters counters, CounterNaming naming, WriteGate gate) {
        return counters(naming).thenCompose(named -> exec(counters, naming, named, gate))
                .exceptionally(RespFailures::answerIncrement);
    }

    /**
     * The counters of every queued call, in order (null for a fixed answer): those of calls that
     * record names first, so that a read queued after the first increment of a new name finds it.
     */
    private CompletableFuture<List<List<NamedCounter>>> counters(CounterNaming naming) {
        List<CompletableFuture<List<NamedCounter>>> named = new ArrayList<>(Collections.nCopies(queued.size(), null));
        for (int i = 0; i < queued.size(); i++) {
            if (queued.get(i) instanceof CounterCall call && call.writes()) {
                named.set(i, call.counters(naming));
            }
        }
        return allOf(named).thenCompose(recorded -> {
            for (int i = 0; i < queued.size(); i++) {
                if (queued.get(i) instanceof CounterCall call && !call.writes()) {
                    named.set(i, call.counters(naming));
                }
            }
            return allOf(named);
        }).thenApply(done -> named.stream().map(future -> future == null ? null : future.join()).toList());
    }

    private static CompletableFuture<Void> allOf(List<CompletableFuture<List<NamedCounter>>> futures) {
        return CompletableFuture.allOf(futures.stream().filter(Objects::nonNull)
                .toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<RedisMessage> exec(AsyncCounters counters, CounterNaming naming,
            List<List<NamedCounter>> named, WriteGate gate) {
        List<Increment> increments = new ArrayList<>();
        for (int i = 0; i < queued.size(); i++) {
            if (queued.get(i) instanceof CounterCall call && call.shape() == CounterCall.Shape.INCREMENT) {
                NamedCounter counter = named.get(i).get(0);
                increments.add(new Increment(counter.type().recordType(), counter.id(), call.amount()));
            }
        }
        CompletableFuture<List<Long>> added = increments.isEmpty()
                ? CompletableFuture.completedFuture(List.of()) : counters.addAllAndGet(increments, gate::enter);
        return added.thenCompose(totals -> totalsAtTheEnd(counters, named, totals))
                .thenCompose(totals -> expiries(counters, naming, gate, !increments.isEmpty())
                        .thenApply(expired -> answers(named, totals, expired)));
    }

    /**
     * Runs the queued expiry commands one after another, once the increments are applied: an
     * {@code INCR} and then an {@code EXPIRE} of the same counter, as a fixed-window limiter
     * queues them, give the counter its expiry after the increment. Each is answered as alone.
     */
    private CompletableFuture<Map<Integer, RedisMessage>> expiries(AsyncCounters counters, CounterNaming naming,
            WriteGate gate, boolean gatePassed) {
        AtomicBoolean passed = new AtomicBoolean(gatePassed);
        Runnable beforeWrite = () -> {
            if (passed.compareAndSet(false, true)) {
                gate.enter(); // the transaction's one gate: the first of its writes passes it
            }
        };
        Map<Integer, RedisMessage> answers = new HashMap<>();
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (int i = 0; i < queued.size(); i++) {
            if (queued.get(i) instanceof ExpiryCall call) {
                int at = i;
                chain = chain.thenCompose(done -> call.run(counters, naming, beforeWrite))
                        .exceptionally(failure -> RespFailures.answer(RespCommand.EXPIRE, failure))
                        .thenAccept(answer -> answers.put(at, answer));
            }
        }
        return chain.thenApply(done -> answers);
    }

    /**
     * Every named counter's total at the end of the batch: learned by it, or read after it. A
     * counter whose name was never recorded is absent, and reads 0.
     */
    private CompletableFuture<Map<Counter, Long>> totalsAtTheEnd(AsyncCounters counters,
            List<List<NamedCounter>> named, List<Long> totals) {
        Map<Counter, Long> atTheEnd = new HashMap<>();
        int next = 0;
        for (int i = 0; i < queued.size(); i++) {
            if (queued.get(i) instanceof CounterCall call && call.shape() == CounterCall.Shape.INCREMENT) {
                atTheEnd.put(Counter.of(named.get(i).get(0)), totals.get(next++));
            }
        }
        Map<Counter, CompletableFuture<Long>> reads = new HashMap<>();
        for (List<NamedCounter> calls : named) {
            if (calls != null) {
                calls.stream().filter(Objects::nonNull).map(Counter::of)
                        .filter(counter -> !atTheEnd.containsKey(counter))
                        .forEach(counter -> reads.computeIfAbsent(counter, c -> counters.get(c.type(), c.id())));
            }
        }
        return CompletableFuture.allOf(reads.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            reads.forEach((key, total) -> atTheEnd.put(key, total.join()));
            return atTheEnd;
        });
    }

    /** The answers, walking back from the end: a counter's total less what follows. */
    private ArrayRedisMessage answers(List<List<NamedCounter>> named, Map<Counter, Long> totals,
            Map<Integer, RedisMessage> expiries) {
        RedisMessage[] answers = new RedisMessage[queued.size()];
        for (int i = queued.size() - 1; i >= 0; i--) {
            Object command = queued.get(i);
            if (command instanceof ExpiryCall) {
                answers[i] = expiries.get(i);
                continue;
            }
            if (!(command instanceof CounterCall call)) {
                answers[i] = (RedisMessage) command;
                continue;
            }
            answers[i] = call.answer(named.get(i).stream()
                    .map(counter -> counter == null ? 0L : totals.get(Counter.of(counter))).toList());
            if (call.shape() == CounterCall.Shape.INCREMENT) {
                totals.merge(Counter.of(named.get(i).get(0)), -call.amount(), Long::sum);
            }
        }
        return new ArrayRedisMessage(List.of(answers));
    }

    /** The answer to {@code EXEC} after a command could not be queued. */
    static ErrorRedisMessage abortedAnswer() {
        return new ErrorRedisMessage("EXECABORT Transaction discarded because of previous errors.");
    }

    /**
     * A counter as the database knows it: {@code downloads:456}, {@code 1:456} and the hash field
     * {@code downloads 456} are one counter, whichever way each command named it.
     */
    private record Counter(int type, long id) {
        static Counter of(NamedCounter counter) {
            return new Counter(counter.type().recordType(), counter.id());
        }
    }

    /** The answer to a command queued. */
    static RedisMessage queuedAnswer() {
        return QUEUED;
    }
}
