package io.slotted.server.resp;

import io.slotted.server.auth.Scope;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The commands the front end knows, each with the number of words it takes (the command's name
 * included, as Redis counts them: negative means at least that many) and what it needs of the
 * caller's token. The counter commands need a scope; the connection commands need none, and those
 * a client sends before it has authenticated need no token at all.
 */
enum RespCommand {
    INCR(2, Scope.WRITE),
    INCRBY(3, Scope.WRITE),
    DECR(2, Scope.WRITE),
    DECRBY(3, Scope.WRITE),
    GET(2, Scope.READ),
    MGET(-2, Scope.READ),
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
        return BY_NAME.get(name.toUpperCase(Locale.ROOT));
    }

    /** Whether {@code words} words (the name included) is a number the command takes. */
    boolean takes(int words) {
        return arity >= 0 ? words == arity : words >= -arity;
    }

    /** The scope the caller's token must cover, or null for a connection command. */
    Scope scope() {
        return scope;
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
