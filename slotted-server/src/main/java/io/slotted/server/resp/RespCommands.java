package io.slotted.server.resp;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.slotted.SlottedCounters;
import io.slotted.server.auth.AccessCheck;
import io.slotted.server.auth.AccessDecision;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.TypeNames;
import io.slotted.server.store.AsyncCounters;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Runs one command of a connection and gives its answer, as a future that always completes with
 * a reply (errors included), never exceptionally.
 *
 * <p>Every command is checked in the same order before it does anything: its name, its number of
 * arguments, the caller's token, then its arguments (keys and numbers). A command refused on the
 * way has changed nothing. The counter commands then go to {@link AsyncCounters}: an increment is
 * answered with the counter's total right after its commit, which the library's flush learns as it
 * writes (so it includes every increment acknowledged before it), {@code INCRBY k 0} only reads,
 * and reads made at the same time share one query.
 */
final class RespCommands {
    /** The most keys one {@code MGET} may read, as the HTTP API allows ids per read. */
    static final int MAX_KEYS = 1000;
    private static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    private static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");
    private static final ArrayRedisMessage EMPTY = ArrayRedisMessage.EMPTY_INSTANCE;

    private final AsyncCounters counters;
    private final TypeNames types;
    private final AccessCheck access;
    private final RespMetrics metrics;
    private final String version;

    RespCommands(AsyncCounters counters, TypeNames types, AccessCheck access, RespMetrics metrics,
            String version) {
        this.counters = counters;
        this.types = types;
        this.access = access;
        this.metrics = metrics;
        this.version = version;
    }

    /**
     * Runs a command.
     *
     * @param client the connection's state, which {@code AUTH}, {@code CLIENT} and {@code QUIT}
     *     change
     * @param words the command's name and arguments
     * @return the answer
     */
    CompletableFuture<RedisMessage> run(ClientState client, List<String> words) {
        long started = System.nanoTime();
        RespCommand command = RespCommand.named(words.get(0));
        CompletableFuture<RedisMessage> answer;
        try {
            answer = start(command, client, words);
        } catch (RespError e) {
            answer = CompletableFuture.completedFuture(e.answer());
        }
        CompletableFuture<RedisMessage> replied = answer.exceptionally(RespFailures::answer);
        if (replied.isDone()) {
            metrics.record(command, replied.join(), started);
        } else {
            replied.thenAccept(reply -> metrics.record(command, reply, started));
        }
        return replied;
    }

    private CompletableFuture<RedisMessage> start(RespCommand command, ClientState client,
            List<String> words) {
        if (command == null) {
            throw unknownCommand(words);
        }
        if (!command.takes(words.size())) {
            throw new RespError("ERR wrong number of arguments for '" + command.label() + "' command");
        }
        checkAccess(command, client);
        List<String> args = words.subList(1, words.size());
        return switch (command) {
            case INCR -> increment(args.get(0), 1);
            case INCRBY -> increment(args.get(0), number(args.get(1)));
            case DECR -> increment(args.get(0), -1);
            case DECRBY -> increment(args.get(0), negated(number(args.get(1))));
            case GET -> get(args.get(0));
            case MGET -> getAll(args);
            default -> CompletableFuture.completedFuture(connectionCommand(command, client, args));
        };
    }

    private static RespError unknownCommand(List<String> words) {
        String beginning = words.stream().skip(1).limit(10)
                .map(word -> "'" + RespText.excerpt(word) + "' ")
                .collect(Collectors.joining());
        return new RespError("ERR unknown command '" + RespText.excerpt(words.get(0))
                + "', with args beginning with: " + beginning);
    }

    private void checkAccess(RespCommand command, ClientState client) {
        if (command.beforeAuth()) {
            return;
        }
        Scope needed = command.scope() == null ? Scope.READ : command.scope();
        AccessDecision decision = access.check(client.token(), needed);
        if (decision == AccessDecision.NO_TOKEN || decision == AccessDecision.UNKNOWN_TOKEN) {
            throw new RespError("NOAUTH Authentication required.");
        }
        if (decision == AccessDecision.LACKS_SCOPE) {
            throw new RespError("NOPERM this token lacks the '" + needed.label() + "' scope that"
                    + " the '" + command.label() + "' command needs");
        }
    }

    /**
     * Adds, then answers the total right after the commit, which the library's flush learns as
     * it writes. {@code INCRBY k 0} only reads.
     */
    private CompletableFuture<RedisMessage> increment(String key, long delta) {
        RespKey counter = RespKey.parse(key, types);
        int type = counter.type().recordType();
        long id = counter.id();
        if (delta == 0) {
            return counters.get(type, id).thenApply(IntegerRedisMessage::new);
        }
        if (delta < -SlottedCounters.MAX_DELTA || delta > SlottedCounters.MAX_DELTA) {
            throw new RespError("ERR increment or decrement must be from -" + SlottedCounters.MAX_DELTA
                    + " to " + SlottedCounters.MAX_DELTA + " (2^52 - 1, the most one slot row holds);"
                    + " nothing was applied: add a larger amount as several increments");
        }
        return counters.addAndGet(type, id, delta)
                .<RedisMessage>thenApply(IntegerRedisMessage::new)
                .exceptionally(RespFailures::answerIncrement);
    }

    private CompletableFuture<RedisMessage> get(String key) {
        RespKey counter = RespKey.parse(key, types);
        return counters.get(counter.type().recordType(), counter.id()).thenApply(RespCommands::bulk);
    }

    private CompletableFuture<RedisMessage> getAll(List<String> keys) {
        if (keys.size() > MAX_KEYS) {
            throw new RespError("ERR at most " + MAX_KEYS + " keys may be read at once, but "
                    + keys.size() + " were given: split them into several MGETs");
        }
        List<CompletableFuture<Long>> totals = new ArrayList<>(keys.size());
        for (String key : keys) {
            RespKey counter = RespKey.parse(key, types);
            totals.add(counters.get(counter.type().recordType(), counter.id()));
        }
        return CompletableFuture.allOf(totals.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<RedisMessage> values = new ArrayList<>(totals.size());
            totals.forEach(total -> values.add(bulk(total.join())));
            return new ArrayRedisMessage(values);
        });
    }

    private RedisMessage connectionCommand(RespCommand command, ClientState client, List<String> args) {
        return switch (command) {
            case PING -> args.isEmpty() ? PONG : bulk(args.get(0));
            case ECHO -> bulk(args.get(0));
            case QUIT -> {
                client.quit();
                yield OK;
            }
            case SELECT -> select(args.get(0));
            case AUTH -> authenticate(client, args);
            case HELLO -> hello(client, args);
            case CLIENT -> RespClientCommand.run(client, args);
            case COMMAND -> args.isEmpty() || !args.get(0).equalsIgnoreCase("COUNT") ? EMPTY
                    : new IntegerRedisMessage(RespCommand.values().length);
            case CONFIG -> config(args);
            case INFO -> bulk(RespText.info(version));
            default -> throw new IllegalStateException(command + " is a counter command");
        };
    }

    private static RedisMessage select(String index) {
        if (number(index) != 0) {
            throw new RespError("ERR DB index is out of range");
        }
        return OK;
    }

    private RedisMessage authenticate(ClientState client, List<String> args) {
        if (args.size() > 2) {
            throw new RespError("ERR syntax error");
        }
        checkToken(client, args.get(args.size() - 1));
        return OK;
    }

    /** Accepts the token for this connection, or refuses it in Redis's words. */
    private void checkToken(ClientState client, String token) {
        if (access.check(null, Scope.ADMIN) == AccessDecision.GRANTED) {
            throw new RespError("ERR AUTH <password> called without any password configured for"
                    + " the default user. Are you sure your configuration is correct?");
        }
        if (access.check(token, Scope.READ) != AccessDecision.GRANTED) {
            throw new RespError("WRONGPASS invalid username-password pair or user is disabled.");
        }
        client.authenticate(token);
    }

    /** {@code HELLO [2 [AUTH user token] [SETNAME name]]}: RESP2 only. */
    private RedisMessage hello(ClientState client, List<String> args) {
        if (!args.isEmpty()) {
            long protocol;
            try {
                protocol = Long.parseLong(args.get(0));
            } catch (NumberFormatException e) {
                throw new RespError("ERR Protocol version is not an integer or out of range");
            }
            if (protocol != 2) {
                throw new RespError("NOPROTO unsupported protocol version");
            }
        }
        String token = null;
        String name = null;
        for (int i = 1; i < args.size(); i++) {
            String option = args.get(i).toUpperCase(Locale.ROOT);
            if (option.equals("AUTH") && i + 2 < args.size()) {
                token = args.get(i + 2);
                i += 2;
            } else if (option.equals("SETNAME") && i + 1 < args.size()) {
                name = args.get(++i);
            } else {
                throw new RespError("ERR Syntax error in HELLO option '" + RespText.excerpt(args.get(i)) + "'");
            }
        }
        if (token != null) {
            checkToken(client, token);
        } else if (access.check(client.token(), Scope.READ) != AccessDecision.GRANTED) {
            throw new RespError("NOAUTH HELLO must be called with the client already authenticated,"
                    + " otherwise the HELLO <proto> AUTH <user> <pass> option can be used to"
                    + " authenticate the client and select the RESP protocol version at the same time");
        }
        if (name != null) {
            RespClientCommand.setName(client, name);
        }
        return new ArrayRedisMessage(List.of(bulk("server"), bulk("slotted"), bulk("version"),
                bulk(version), bulk("proto"), new IntegerRedisMessage(2), bulk("id"),
                new IntegerRedisMessage(client.id()), bulk("mode"), bulk("standalone"), bulk("role"),
                bulk("master"), bulk("modules"), EMPTY));
    }

    private static RedisMessage config(List<String> args) {
        if (!args.get(0).equalsIgnoreCase("GET")) {
            throw new RespError("ERR CONFIG " + RespText.excerpt(args.get(0)).toUpperCase(Locale.ROOT)
                    + " is not supported: the server's settings are its command-line options");
        }
        return EMPTY;
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

    /** A bulk string of the bytes a client sent (decoded as Latin-1), or of ASCII text. */
    static FullBulkStringRedisMessage bulk(String text) {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    private static FullBulkStringRedisMessage bulk(long number) {
        return bulk(Long.toString(number));
    }
}
