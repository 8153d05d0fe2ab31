package io.slotted.server.resp.command;

import static io.slotted.server.resp.command.RespText.bulk;

import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.slotted.server.auth.GuardedAccess;
import io.slotted.server.auth.AccessDecision;
import io.slotted.server.auth.Scope;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import io.slotted.server.store.AsyncCounters;
import io.slotted.server.store.WriteGate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Runs one command of a connection and gives its answer, as a future that always completes with
 * a reply (errors included), never exceptionally.
 *
 * <p>Every command is checked in the same order before it does anything: its name, its number of
 * arguments, the caller's token, then its arguments (keys and numbers, into a {@link CounterCall}).
 * A command refused on the way has changed nothing. The counter commands then go to
 * {@link AsyncCounters}: an increment is answered with the counter's total right after its commit,
 * which the library's flush learns as it writes (so it includes every increment acknowledged
 * before it), {@code INCRBY k 0} only reads, and reads made at the same time share one query.
 * Between {@code MULTI} and {@code EXEC} the checked commands are queued instead, and run as one
 * batch ({@link RespTransaction}).
 *
 * <p>Every command has the service's request deadline, counted from its arrival: its
 * {@link CommandAnswer} says what it is answered if the deadline passes first. Each write passes a
 * {@link WriteGate} right before it is handed to the library, which decides whether that answer
 * is {@code -ERR timeout} (nothing written, ever) or {@code -ERR outcome unknown}.
 */
public final class RespCommands {
    static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    private static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");
    private static final ArrayRedisMessage EMPTY = ArrayRedisMessage.EMPTY_INSTANCE;
    /** The gate of a write whose command already passed its own. */
    private static final Runnable NO_GATE = () -> { };

    private final AsyncCounters counters;
    private final CounterNaming naming;
    private final GuardedAccess access;
    private final RespMetrics metrics;
    private final Duration deadline;
    private final String version;

    /**
     * The commands of every connection.
     *
     * @param counters where counter commands read and write
     * @param naming how keys name counters
     * @param access who may do what
     * @param metrics where commands are recorded
     * @param deadline how long a command may take from its arrival before it is given up
     * @param version the service's version, for {@code HELLO} and {@code INFO}
     */
    public RespCommands(AsyncCounters counters, CounterNaming naming, GuardedAccess access,
            RespMetrics metrics, Duration deadline, String version) {
        this.counters = counters;
        this.naming = naming;
        this.access = access;
        this.metrics = metrics;
        this.deadline = deadline;
        this.version = version;
    }

    /**
     * Runs a command.
     *
     * @param client the connection's state, which {@code AUTH}, {@code CLIENT} and {@code QUIT}
     *     change
     * @param words the command's name and arguments
     * @return the answer, and what it is if the command's deadline passes first
     */
    public CommandAnswer run(ClientState client, List<String> words) {
        long started = System.nanoTime();
        RespCommand command = RespCommand.named(words.get(0));
        WriteGate gate = new WriteGate();
        CompletableFuture<RedisMessage> answer;
        try {
            answer = client.transaction() != null && (command == null || !command.controlsTransaction())
                    ? CompletableFuture.completedFuture(queue(command, client, words))
                    : start(command, client, words, gate);
            if (command != null && (command == RespCommand.EXEC || command.scope() == Scope.WRITE
                    || command.scope() == Scope.ADMIN)) {
                client.wrote(answer);
            }
        } catch (RespError e) {
            answer = CompletableFuture.completedFuture(e.answer());
        }
        return new CommandAnswer(reply(command, answer, started), command, gate, started, deadline,
                metrics);
    }

    /** The answer as a reply, never failed, with its metric recorded once it is known. */
    private CompletableFuture<RedisMessage> reply(RespCommand command,
            CompletableFuture<RedisMessage> answer, long started) {
        if (answer.isDone()) {
            RedisMessage reply = answer.exceptionally(failure -> RespFailures.answer(command, failure)).join();
            metrics.record(command, reply, started);
            return CompletableFuture.completedFuture(reply);
        }
        // One stage for the answer, its failure and its metric: the flusher that completes the
        // command runs it, so every stage is time taken from writing the next flush. It does not
        // run at all if the command was given up at its deadline first.
        return answer.handle((reply, failure) -> {
            RedisMessage message = failure == null ? reply : RespFailures.answer(command, failure);
            metrics.record(command, message, started);
            return message;
        });
    }

    private CompletableFuture<RedisMessage> start(RespCommand command, ClientState client,
            List<String> words, WriteGate gate) {
        List<String> args = checked(command, client, words);
        if (command.expires()) {
            ExpiryCall call = ExpiryCall.parse(command, args, naming);
            return client.lastWrite().handle((done, failed) -> null)
                    .thenCompose(earlier -> call.run(counters, naming, gate::enter));
        }
        if (command == RespCommand.SET) {
            ExpiryCall until = ExpiryCall.setWithExpiry(args, naming, counters.now().toEpochMilli());
            if (until != null) {
                return until.run(counters, naming, gate::enter);
            }
        }
        if (command.counts()) {
            return runAlone(CounterCall.parse(command, args, naming), gate);
        }
        return switch (command) {
            case MULTI -> begin(client);
            case EXEC -> exec(client, gate);
            case DISCARD -> discard(client);
            case WATCH -> throw new RespError("ERR WATCH is not supported: increments in a MULTI are"
                    + " applied all or nothing");
            case UNWATCH -> CompletableFuture.completedFuture(OK);
            default -> CompletableFuture.completedFuture(connectionCommand(command, client, args));
        };
    }

    /** The command's arguments, once its name, its number of words and the token are right. */
    private List<String> checked(RespCommand command, ClientState client, List<String> words) {
        if (command == null) {
            throw unknownCommand(words);
        }
        if (!command.takes(words.size())) {
            throw new RespError("ERR wrong number of arguments for '" + command.label() + "' command");
        }
        checkAccess(command, client);
        return words.subList(1, words.size());
    }

    /**
     * Queues a command of a transaction, or refuses it, which makes the transaction's
     * {@code EXEC} fail: a command that does not parse, or one that cannot be part of a batch.
     */
    private RedisMessage queue(RespCommand command, ClientState client, List<String> words) {
        RespTransaction transaction = client.transaction();
        try {
            List<String> args = checked(command, client, words);
            if (command.expires()) {
                transaction.queue(ExpiryCall.parse(command, args, naming));
            } else if (command.counts()) {
                CounterCall call = CounterCall.parse(command, args, naming);
                if (call.shape() == CounterCall.Shape.SET || call.shape() == CounterCall.Shape.RESET) {
                    throw new RespError("ERR " + command.name() + " cannot be queued in a MULTI, which"
                            + " applies increments all or nothing: send it on its own");
                }
                transaction.queue(call);
            } else if (command == RespCommand.PING || command == RespCommand.ECHO) {
                transaction.queue(connectionCommand(command, client, args));
            } else {
                throw new RespError("ERR " + command.name() + " cannot be queued in a MULTI: only"
                        + " counter commands, PING and ECHO can");
            }
        } catch (RespError e) {
            transaction.abort();
            throw e;
        }
        return RespTransaction.queuedAnswer();
    }

    private CompletableFuture<RedisMessage> begin(ClientState client) {
        if (client.transaction() != null) {
            throw new RespError("ERR MULTI calls can not be nested");
        }
        client.transaction(new RespTransaction());
        return CompletableFuture.completedFuture(OK);
    }

    private CompletableFuture<RedisMessage> exec(ClientState client, WriteGate gate) {
        RespTransaction transaction = client.transaction();
        if (transaction == null) {
            throw new RespError("ERR EXEC without MULTI");
        }
        client.transaction(null);
        return transaction.aborted() ? CompletableFuture.completedFuture(RespTransaction.abortedAnswer())
                : transaction.exec(counters, naming, gate);
    }

    private CompletableFuture<RedisMessage> discard(ClientState client) {
        if (client.transaction() == null) {
            throw new RespError("ERR DISCARD without MULTI");
        }
        client.transaction(null);
        return CompletableFuture.completedFuture(OK);
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
        AccessDecision decision = access.checkAccepted(client.token(), needed);
        if (decision == AccessDecision.NO_TOKEN || decision == AccessDecision.UNKNOWN_TOKEN) {
            throw new RespError("NOAUTH Authentication required.");
        }
        if (decision == AccessDecision.LACKS_SCOPE) {
            throw new RespError("NOPERM this token lacks the '" + needed.label() + "' scope that"
                    + " the '" + command.label() + "' command needs");
        }
    }

    /**
     * Runs a counter command on its own, once its keys are looked up (at once for numbers and for
     * names this process knows). An increment is answered with the total right after its
     * commit, which the library's flush learns as it writes; reads share queries with the reads
     * waiting at the time; sets run on the library's writers. Each write passes {@code gate} first.
     */
    private CompletableFuture<RedisMessage> runAlone(CounterCall call, WriteGate gate) {
        return call.counters(naming).thenCompose(named -> runAlone(call, named, gate));
    }

    private CompletableFuture<RedisMessage> runAlone(CounterCall call, List<NamedCounter> named,
            WriteGate gate) {
        NamedCounter first = named.get(0);
        return switch (call.shape()) {
            case INCREMENT -> counters.addAndGet(first.type().recordType(), first.id(), call.amount(),
                            gate::enter)
                    .handle((total, failure) -> failure == null ? new IntegerRedisMessage(total)
                            : RespFailures.answerIncrement(failure));
            case SET -> counters.set(first.type().recordType(), first.id(), call.amount(), gate::enter)
                    .thenApply(done -> OK);
            case RESET -> reset(named, gate);
            default -> totals(named).thenApply(call::answer);
        };
    }

    /**
     * {@code DEL}: reads the counters, then sets those not at 0 to 0, and answers how many. The
     * sets pass the gate together, so a {@code DEL} given up while it reads sets nothing.
     */
    private CompletableFuture<RedisMessage> reset(List<NamedCounter> named, WriteGate gate) {
        return totals(named).thenCompose(totals -> {
            List<CompletableFuture<Void>> sets = new ArrayList<>();
            Set<NamedCounter> notZero = new LinkedHashSet<>();
            for (int i = 0; i < named.size(); i++) {
                if (totals.get(i) != 0) {
                    notZero.add(named.get(i));
                }
            }
            if (!notZero.isEmpty()) {
                gate.enter();
            }
            notZero.forEach(counter -> sets.add(counters.set(counter.type().recordType(), counter.id(),
                    0, NO_GATE)));
            return CompletableFuture.allOf(sets.toArray(CompletableFuture[]::new))
                    .thenApply(done -> new IntegerRedisMessage(notZero.size()));
        });
    }

    /**
     * The totals of counters, read together with the reads waiting at the time, in order; a
     * counter whose name was never recorded (null) is 0.
     */
    private CompletableFuture<List<Long>> totals(List<NamedCounter> named) {
        List<CompletableFuture<Long>> totals = new ArrayList<>(named.size());
        named.forEach(counter -> totals.add(counter == null ? CompletableFuture.completedFuture(0L)
                : counters.get(counter.type().recordType(), counter.id())));
        return CompletableFuture.allOf(totals.toArray(CompletableFuture[]::new))
                .thenApply(done -> totals.stream().map(CompletableFuture::join).toList());
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
        if (CounterCall.number(index) != 0) {
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
        if (!access.needsTokens()) {
            throw new RespError("ERR AUTH <password> called without any password configured for"
                    + " the default user. Are you sure your configuration is correct?");
        }
        AccessDecision decision = access.check(client.address(), token, Scope.READ);
        if (decision == AccessDecision.HELD_BACK) {
            throw new RespError("ERR too many wrong tokens came from "
                    + client.address().getHostAddress() + " lately: the token was not checked;"
                    + " try AUTH again in " + access.secondsToWait(client.address()) + " s");
        }
        if (decision != AccessDecision.GRANTED) {
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
        } else if (access.checkAccepted(client.token(), Scope.READ) != AccessDecision.GRANTED) {
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
}
