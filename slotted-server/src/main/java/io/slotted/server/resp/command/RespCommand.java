package io.slotted.server.resp.command;

import io.slotted.server.auth.Scope;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The commands the front end knows, each with the number of words it takes (the command's name
 * included, as Redis counts them: negative means at least that many) and what it needs of the
 * caller's token. The counter commands need a scope; the connection and transaction commands need
 * none, and those a client sends before it has authenticated need no token at all.
 */
enum RespCommand {
    INCR(2, Scope.WRITE),
    INCRBY(3, Scope.WRITE),
    DECR(2, Scope.WRITE),
    DECRBY(3, Scope.WRITE),
    HINCRBY(4, Scope.WRITE),
    INCRBYFLOAT(3, Scope.WRITE),
    GET(2, Scope.READ),
    MGET(-2, Scope.READ),
    HGET(3, Scope.READ),
    HMGET(-3, Scope.READ),
    EXISTS(-2, Scope.READ),
    SET(-3, Scope.ADMIN),
    DEL(-2, Scope.ADMIN),
    EXPIRE(-3, Scope.WRITE),
    PEXPIRE(-3, Scope.WRITE),
    EXPIREAT(-3, Scope.WRITE),
    PEXPIREAT(-3, Scope.WRITE),
    PERSIST(2, Scope.WRITE),
    TTL(2, Scope.READ),
    PTTL(2, Scope.READ),
    MULTI(1, null),
    EXEC(1, null),
    DISCARD(1, null),
    WATCH(-2, null),
    UNWATCH(1, null),
    PING(-1, null, true),
    ECHO(2, null),
    QUIT(-1, null, true),
    SELECT(2, null),
    AUTH(-2, null, true),
    HELLO(-1, null, true),
    CLIENT(-2, null),
    COMMAND(-1, null),
    CONFIG(-2, null),
    INFO(-1, null);

    private static final Map<String, RespCommand> BY_NAME = Stream.of(values())
            .collect(Collectors.toUnmodifiableMap(Enum::name, Function.identity()));

    private final int arity;
    private final Scope scope;
    private final boolean beforeAuth;

    RespCommand(int arity, Scope scope) {
        this(arity, scope, false);
    }

    RespCommand(int arity, Scope scope, boolean beforeAuth) {
        this.arity = arity;
        this.scope = scope;
        this.beforeAuth = beforeAuth;
    }

    /**
     * The command of a name, in any case.
     *
     * @param name the command's first word
     * @return the command, or null when there is none of that name
     */
    static RespCommand named(String name) {
        RespCommand command = BY_NAME.get(name);
        return command != null ? command : BY_NAME.get(name.toUpperCase(Locale.ROOT));
    }

    /** Whether {@code words} words (the name included) is a number the command takes. */
    boolean takes(int words) {
        return arity >= 0 ? words == arity : words >= -arity;
    }

    /** The scope the caller's token must cover, or null for a connection command. */
    Scope scope() {
        return scope;
    }

    /** Whether it works on counters' totals: the commands with a scope, but for those of expiries. */
    boolean counts() {
        return scope != null && !expires();
    }

    /** Whether it reads or changes a counter's expiry ({@link ExpiryCall}). */
    boolean expires() {
        return this == EXPIRE || this == PEXPIRE || this == EXPIREAT || this == PEXPIREAT || this == PERSIST
                || this == TTL || this == PTTL;
    }

    /** Whether it runs at once inside a {@code MULTI} rather than being queued. */
    boolean controlsTransaction() {
        return this == MULTI || this == EXEC || this == DISCARD || this == WATCH || this == UNWATCH
                || this == QUIT;
    }

    /** Whether a client may send it before {@code AUTH} when the server has tokens. */
    boolean beforeAuth() {
        return beforeAuth;
    }

    /** The name as Redis quotes it in errors and metrics. */
    String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
