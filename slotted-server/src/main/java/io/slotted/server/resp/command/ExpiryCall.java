package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.ExpiryRule;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import io.slotted.server.store.AsyncCounters;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A command about a counter's expiry, its arguments checked: {@code EXPIRE}, {@code PEXPIRE},
 * {@code EXPIREAT}, {@code PEXPIREAT} (each with {@code NX}, {@code XX}, {@code GT} or
 * {@code LT}), {@code PERSIST}, {@code TTL}, {@code PTTL}, and {@code SET key n} with {@code EX},
 * {@code PX}, {@code EXAT} or {@code PXAT}. Answered as Redis answers them: 1 or 0 for a change,
 * {@code -2} for the time to live of a counter that reads 0, {@code -1} for one without an expiry.
 * Only the types the service was started with {@code --expiring} take an expiry; reading the time
 * to live of another type's counter answers as for a counter without one.
 *
 * @param kind what it does
 * @param key the counter
 * @param millis the expiry: milliseconds from now ({@link Kind#EXPIRE_IN}) or since the epoch
 *     ({@link Kind#EXPIRE_AT}, {@link Kind#SET_UNTIL}); 0 otherwise
 * @param count the count of a {@code SET}; 0 otherwise
 * @param rule when a new expiry replaces the current one
 */
record ExpiryCall(Kind kind, RespKey key, long millis, long count, ExpiryRule rule) {
    private static final RedisMessage ONE = new IntegerRedisMessage(1);
    private static final RedisMessage ZERO = new IntegerRedisMessage(0);
    private static final RedisMessage ABSENT = new IntegerRedisMessage(-2);
    private static final RedisMessage NO_EXPIRY = new IntegerRedisMessage(-1);

    /** What an expiry command does. */
    enum Kind {
        /** Expires the counter {@code millis} from now. */
        EXPIRE_IN,
        /** Expires the counter at {@code millis} since the epoch. */
        EXPIRE_AT,
        /** Takes the counter's expiry away. */
        PERSIST,
        /** Answers the counter's time to live in seconds. */
        TTL,
        /** Answers the counter's time to live in milliseconds. */
        PTTL,
        /** Sets the counter to {@code count}, expiring at {@code millis} since the epoch. */
        SET_UNTIL
    }

    /**
     * Checks an expiry command's arguments.
     *
     * @param command the command, one that {@linkplain RespCommand#expires() expires}
     * @param args its arguments
     * @param naming checks the key
     * @return the call
     * @throws RespError saying what is wrong
     */
    static ExpiryCall parse(RespCommand command, List<String> args, CounterNaming naming) {
        RespKey key = RespKey.parse(args.get(0), naming);
        return switch (command) {
            case EXPIRE -> expire(Kind.EXPIRE_IN, key, scaled(args.get(1), 1000, command), args);
            case PEXPIRE -> expire(Kind.EXPIRE_IN, key, scaled(args.get(1), 1, command), args);
            case EXPIREAT -> expire(Kind.EXPIRE_AT, key, scaled(args.get(1), 1000, command), args);
            case PEXPIREAT -> expire(Kind.EXPIRE_AT, key, scaled(args.get(1), 1, command), args);
            case PERSIST -> new ExpiryCall(Kind.PERSIST, key, 0, 0, ExpiryRule.ALWAYS);
            case TTL -> new ExpiryCall(Kind.TTL, key, 0, 0, ExpiryRule.ALWAYS);
            case PTTL -> new ExpiryCall(Kind.PTTL, key, 0, 0, ExpiryRule.ALWAYS);
            default -> throw new IllegalArgumentException(command + " is not an expiry command");
        };
    }

    /**
     * {@code SET key n} with an expiry option, or null when it has none (a plain set).
     *
     * @param args the key, the count and the options
     * @param naming checks the key
     * @param now the time now, epoch milliseconds, for {@code EX} and {@code PX}
     * @return the call, or null for a plain {@code SET key n}
     * @throws RespError if an option is unknown or its time is not a positive integer
     */
    static ExpiryCall setWithExpiry(List<String> args, CounterNaming naming, long now) {
        if (args.size() == 2) {
            return null;
        }
        String option = args.get(2).toUpperCase(Locale.ROOT);
        if (args.size() != 4 || !List.of("EX", "PX", "EXAT", "PXAT").contains(option)) {
            throw new RespError("ERR SET takes a key, a count and at most one of EX seconds, PX milliseconds,"
                    + " EXAT unix-time-seconds or PXAT unix-time-milliseconds; NX, XX, GET and KEEPTTL are not"
                    + " supported");
        }
        long time = CounterCall.number(args.get(3));
        if (time <= 0) {
            throw new RespError("ERR invalid expire time in 'set' command");
        }
        long millis = switch (option) {
            case "EX" -> addExact(now, scaled(args.get(3), 1000, RespCommand.SET));
            case "PX" -> addExact(now, time);
            case "EXAT" -> scaled(args.get(3), 1000, RespCommand.SET);
            default -> time;
        };
        return new ExpiryCall(Kind.SET_UNTIL, RespKey.parse(args.get(0), naming), millis,
                CounterCall.number(args.get(1)), ExpiryRule.ALWAYS);
    }

    private static ExpiryCall expire(Kind kind, RespKey key, long millis, List<String> args) {
        if (args.size() > 3) {
            throw new RespError("ERR EXPIRE takes at most one of NX, XX, GT and LT");
        }
        ExpiryRule rule = args.size() == 2 ? ExpiryRule.ALWAYS : switch (args.get(2).toUpperCase(Locale.ROOT)) {
            case "NX" -> ExpiryRule.IF_NONE;
            case "XX" -> ExpiryRule.IF_SET;
            case "GT" -> ExpiryRule.IF_LATER;
            case "LT" -> ExpiryRule.IF_EARLIER;
            default -> throw new RespError("ERR Unsupported option " + RespText.excerpt(args.get(2)));
        };
        return new ExpiryCall(kind, key, millis, 0, rule);
    }

    /** A time argument in milliseconds: the integer times {@code scale}, refused if that overflows. */
    private static long scaled(String text, long scale, RespCommand command) {
        try {
            return Math.multiplyExact(CounterCall.number(text), scale);
        } catch (ArithmeticException e) {
            throw invalidTime(command);
        }
    }

    private static long addExact(long now, long millis) {
        try {
            return Math.addExact(now, millis);
        } catch (ArithmeticException e) {
            throw invalidTime(RespCommand.SET);
        }
    }

    private static RespError invalidTime(RespCommand command) {
        return new RespError("ERR invalid expire time in '" + command.label() + "' command");
    }

    /** Whether the call changes anything. */
    boolean writes() {
        return kind != Kind.TTL && kind != Kind.PTTL;
    }

    /**
     * Runs the call.
     *
     * @param counters the counters
     * @param naming how the key names a counter
     * @param beforeWrite passed right before a write is handed to the library: the command's gate
     * @return the answer
     */
    CompletableFuture<RedisMessage> run(AsyncCounters counters, CounterNaming naming, Runnable beforeWrite) {
        CompletableFuture<Optional<NamedCounter>> named = kind == Kind.SET_UNTIL
                ? naming.toWrite(key.type(), key.id()).thenApply(Optional::of)
                : naming.toRead(key.type(), key.id());
        return named.thenCompose(counter -> counter.isEmpty() ? CompletableFuture.completedFuture(absent())
                : run(counters, counter.get(), beforeWrite));
    }

    /** The answer about a counter whose name was never recorded: it reads 0, and has no expiry. */
    private RedisMessage absent() {
        return switch (kind) {
            case TTL, PTTL -> ABSENT;
            default -> ZERO;
        };
    }

    private CompletableFuture<RedisMessage> run(AsyncCounters counters, NamedCounter counter, Runnable beforeWrite) {
        int type = counter.type().recordType();
        long id = counter.id();
        if (!counters.expiring(type)) {
            if (kind == Kind.TTL || kind == Kind.PTTL) {
                return counters.get(type, id).thenApply(total -> total == 0 ? ABSENT : NO_EXPIRY);
            }
            throw new RespError("ERR type " + counter.type() + " does not expire: start the service with"
                    + " --expiring " + counter.type() + " (every process alike) to give its counters an expiry;"
                    + " nothing was changed");
        }
        return switch (kind) {
            case EXPIRE_IN -> counters.expireAt(type, id, Instant.ofEpochMilli(addExact(counters.now().toEpochMilli(),
                    millis)), rule, beforeWrite).thenApply(ExpiryCall::answer);
            case EXPIRE_AT -> counters.expireAt(type, id, Instant.ofEpochMilli(millis), rule, beforeWrite)
                    .thenApply(ExpiryCall::answer);
            case PERSIST -> counters.persist(type, id, beforeWrite).thenApply(ExpiryCall::answer);
            case SET_UNTIL -> counters.setUntil(type, id, count, Instant.ofEpochMilli(millis), beforeWrite)
                    .thenApply(done -> RespCommands.OK);
            case TTL, PTTL -> timeToLive(counters, type, id);
        };
    }

    private CompletableFuture<RedisMessage> timeToLive(AsyncCounters counters, int type, long id) {
        return counters.expiresAt(type, id).thenCompose(at -> {
            if (at.isPresent()) {
                long left = Math.max(0, at.get().toEpochMilli() - counters.now().toEpochMilli());
                return CompletableFuture.completedFuture(new IntegerRedisMessage(kind == Kind.PTTL ? left
                        : (left + 500) / 1000));
            }
            return counters.get(type, id).thenApply(total -> total == 0 ? ABSENT : NO_EXPIRY);
        });
    }

    private static RedisMessage answer(boolean changed) {
        return changed ? ONE : ZERO;
    }
}
