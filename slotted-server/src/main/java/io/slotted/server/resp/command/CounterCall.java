package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.SlottedCounters;
import io.slotted.server.config.TypeNames;
import java.util.ArrayList;
import java.util.List;

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
     * @param types the type names
     * @return the call
     * @throws RespError saying what is wrong with an argument
     */
    static CounterCall parse(RespCommand command, List<String> args, TypeNames types) {
        return switch (command) {
            case INCR -> increment(RespKey.parse(args.get(0), types), 1);
            case INCRBY -> increment(RespKey.parse(args.get(0), types), number(args.get(1)));
            case DECR -> increment(RespKey.parse(args.get(0), types), -1);
            case DECRBY -> increment(RespKey.parse(args.get(0), types), negated(number(args.get(1))));
            case HINCRBY -> increment(RespKey.of(args.get(0), args.get(1), types), number(args.get(2)));
            case INCRBYFLOAT -> throw new RespError("ERR counters are integers: use INCRBY");
            case GET -> new CounterCall(Shape.VALUE, List.of(RespKey.parse(args.get(0), types)), 0);
            case HGET -> new CounterCall(Shape.VALUE, List.of(RespKey.of(args.get(0), args.get(1), types)), 0);
            case MGET -> new CounterCall(Shape.VALUES, keys(args, types), 0);
            case HMGET -> new CounterCall(Shape.VALUES, fields(args.get(0), args.subList(1, args.size()), types), 0);
            case EXISTS -> new CounterCall(Shape.NOT_ZERO, keys(args, types), 0);
            case SET -> set(args, types);
            case DEL -> new CounterCall(Shape.RESET, keys(args, types), 0);
            default -> throw new IllegalArgumentException(command + " is not a counter command");
        };
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

    private static CounterCall set(List<String> args, TypeNames types) {
        if (args.size() != 2) {
            throw new RespError("ERR SET takes a key and a count, without options such as EX or NX:"
                    + " counters do not expire");
        }
        return new CounterCall(Shape.SET, List.of(RespKey.parse(args.get(0), types)), number(args.get(1)));
    }

    private static List<RespKey> keys(List<String> words, TypeNames types) {
        checkCount(words.size());
        List<RespKey> keys = new ArrayList<>(words.size());
        words.forEach(word -> keys.add(RespKey.parse(word, types)));
        return keys;
    }

    private static List<RespKey> fields(String type, List<String> ids, TypeNames types) {
        checkCount(ids.size());
        List<RespKey> keys = new ArrayList<>(ids.size());
        ids.forEach(id -> keys.add(RespKey.of(type, id, types)));
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
