package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.SlottedCounters;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A counter command with its arguments checked: the counters it names, the amount it adds, and
 * the shape of its answer. Parsing refuses a bad command before anything is written, so a command
 * that parses can be run alone or queued in a {@code MULTI}.
 *
 * @param shape what it does and how it is answered
 * @param keys the counters it names, in the order given
 * @param amount the delta of an increment, or the count of a {@code SET}; 0 otherwise
 */
record CounterCall(Shape shape, List<RespKey> keys, long amount) {
    /** The most keys one command may name, as the HTTP API allows ids per read. */
    static final int MAX_KEYS = 1000;

    /** What a counter command does and how it is answered. */
    enum Shape {
        /** Adds {@code amount} to one counter; answers its total after the commit, an integer. */
        INCREMENT,
        /** Reads one counter; answers its total as an integer ({@code INCRBY k 0}). */
        TOTAL,
        /** Reads one counter; answers its total as a bulk string ({@code GET}, {@code HGET}). */
        VALUE,
        /** Reads counters; answers an array of bulk strings ({@code MGET}, {@code HMGET}). */
        VALUES,
        /** Reads counters; answers how many are not 0 ({@code EXISTS}). */
        NOT_ZERO,
        /** Sets one counter to {@code amount}; answers OK ({@code SET}). */
        SET,
        /** Sets counters to 0; answers how many were not 0 before ({@code DEL}). */
        RESET;

        /** Whether the command reads totals and writes nothing. */
        boolean reads() {
            return this == TOTAL || this == VALUE || this == VALUES || this == NOT_ZERO;
        }
    }

    /**
     * Checks a counter command's arguments.
     *
     * @param command the command, one that {@linkplain RespCommand#counts() counts}
     * @param args its arguments, as many as it takes
     * @param naming checks the keys' types and ids
     * @return the call
     * @throws RespError saying what is wrong with an argument
     */
    static CounterCall parse(RespCommand command, List<String> args, CounterNaming naming) {
        return switch (command) {
            case INCR -> increment(RespKey.parse(args.get(0), naming), 1);
            case INCRBY -> increment(RespKey.parse(args.get(0), naming), number(args.get(1)));
            case DECR -> increment(RespKey.parse(args.get(0), naming), -1);
            case DECRBY -> increment(RespKey.parse(args.get(0), naming), negated(number(args.get(1))));
            case HINCRBY -> increment(RespKey.of(args.get(0), args.get(1), naming), number(args.get(2)));
            case INCRBYFLOAT -> throw new RespError("ERR counters are integers: use INCRBY");
            case GET -> new CounterCall(Shape.VALUE, List.of(RespKey.parse(args.get(0), naming)), 0);
            case HGET -> new CounterCall(Shape.VALUE, List.of(RespKey.of(args.get(0), args.get(1), naming)), 0);
            case MGET -> new CounterCall(Shape.VALUES, keys(args, naming), 0);
            case HMGET -> new CounterCall(Shape.VALUES, fields(args.get(0), args.subList(1, args.size()), naming), 0);
            case EXISTS -> new CounterCall(Shape.NOT_ZERO, keys(args, naming), 0);
            case SET -> set(args, naming);
            case DEL -> new CounterCall(Shape.RESET, keys(args, naming), 0);
            default -> throw new IllegalArgumentException(command + " is not a counter command");
        };
    }

    /**
     * The counters the call names, looked up in the order given. A call that counts or sets
     * records a new type name or string id; any other only looks names up, and a counter whose
     * name was never recorded is null: it reads 0, and a reset leaves it alone.
     *
     * @param naming the names
     * @return the counters; failed when a name could not be recorded or looked up
     */
    CompletableFuture<List<NamedCounter>> counters(CounterNaming naming) {
        boolean records = shape == Shape.INCREMENT || shape == Shape.SET;
        if (keys.size() == 1) {
            return counter(keys.get(0), naming, records).thenApply(Collections::singletonList);
        }
        List<CompletableFuture<NamedCounter>> found = new ArrayList<>(keys.size());
        keys.forEach(key -> found.add(counter(key, naming, records)));
        return CompletableFuture.allOf(found.toArray(CompletableFuture[]::new))
                .thenApply(done -> found.stream().map(CompletableFuture::join).toList());
    }

    private static CompletableFuture<NamedCounter> counter(RespKey key, CounterNaming naming, boolean records) {
        return records ? naming.toWrite(key.type(), key.id())
                : naming.toRead(key.type(), key.id()).thenApply(found -> found.orElse(null));
    }

    /** Whether the call writes: an increment, a set or a reset. */
    boolean writes() {
        return !shape.reads();
    }

    /**
     * The answer to a call that increments or reads, given the totals of its counters.
     *
     * @param totals the total of each of its keys, in order
     * @return its answer as Redis shapes it
     */
    RedisMessage answer(List<Long> totals) {
        return switch (shape) {
            case INCREMENT, TOTAL -> new IntegerRedisMessage(totals.get(0));
            case VALUE -> RespText.bulk(totals.get(0));
            case VALUES -> new ArrayRedisMessage(totals.stream().<RedisMessage>map(RespText::bulk).toList());
            case NOT_ZERO -> new IntegerRedisMessage(totals.stream().filter(total -> total != 0).count());
            default -> throw new IllegalStateException(shape + " answers no totals");
        };
    }

    private static CounterCall increment(RespKey key, long delta) {
        if (delta == 0) {
            return new CounterCall(Shape.TOTAL, List.of(key), 0);
        }
        if (delta < -SlottedCounters.MAX_DELTA || delta > SlottedCounters.MAX_DELTA) {
            throw new RespError("ERR increment or decrement must be from -" + SlottedCounters.MAX_DELTA
                    + " to " + SlottedCounters.MAX_DELTA + " (2^52 - 1, the most one slot row holds);"
                    + " nothing was applied: add a larger amount as several increments");
        }
        return new CounterCall(Shape.INCREMENT, List.of(key), delta);
    }

    private static CounterCall set(List<String> args, CounterNaming naming) {
        if (args.size() != 2) {
            throw new RespError("ERR SET takes a key and a count, and at most one of EX, PX, EXAT or PXAT"
                    + " for a counter of an expiring type");
        }
        return new CounterCall(Shape.SET, List.of(RespKey.parse(args.get(0), naming)), number(args.get(1)));
    }

    private static List<RespKey> keys(List<String> words, CounterNaming naming) {
        checkCount(words.size());
        List<RespKey> keys = new ArrayList<>(words.size());
        words.forEach(word -> keys.add(RespKey.parse(word, naming)));
        return keys;
    }

    private static List<RespKey> fields(String type, List<String> ids, CounterNaming naming) {
        checkCount(ids.size());
        List<RespKey> keys = new ArrayList<>(ids.size());
        ids.forEach(id -> keys.add(RespKey.of(type, id, naming)));
        return keys;
    }

    private static void checkCount(int keys) {
        if (keys > MAX_KEYS) {
            throw new RespError("ERR at most " + MAX_KEYS + " keys may be named at once, but " + keys
                    + " were given: split them into several commands");
        }
    }

    /** A signed 64-bit decimal argument, in Redis's strict form. */
    static long number(String text) {
        if (text.isEmpty() || text.length() > 20 || text.startsWith("+")
                || (text.length() > 1 && (text.startsWith("0") || text.startsWith("-0")))) {
            throw new RespError(RespError.NOT_AN_INTEGER);
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new RespError(RespError.NOT_AN_INTEGER);
        }
    }

    private static long negated(long amount) {
        if (amount == Long.MIN_VALUE) {
            throw new RespError(RespFailures.OVERFLOW);
        }
        return -amount;
    }
}
