package io.slotted.server.auth;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a token may do. Scopes nest: {@code write} implies {@code read}, and {@code admin} implies
 * both, so a check asks whether a granted scope {@link #covers(Scope) covers} the one required.
 */
public enum Scope {
    /** Read counters. */
    READ,
    /** Increment counters, and read them. */
    WRITE,
    /** Everything, including what later admin endpoints will offer. */
    ADMIN;

    /**
     * Whether a token granted this scope may do what {@code required} allows.
     *
     * @param required the scope an endpoint needs
     * @return true if this scope is the same as or wider than {@code required}
     */
    public boolean covers(Scope required) {
        return compareTo(required) >= 0;
    }

    /**
     * The scope named in a token file, such as {@code write}.
     *
     * @param name the scope's lowercase name
     * @return the scope
     * @throws IllegalArgumentException if there is no scope of that name
     */
    public static Scope named(String name) {
        for (Scope scope : values()) {
            if (scope.label().equals(name)) {
                return scope;
            }
        }
        throw new IllegalArgumentException("unknown scope '" + name + "': use read, write or admin");
    }

    /**
     * The scopes of a comma-separated list, as token files and {@code slotted token create --scope}
     * write them, such as {@code read,write}.
     *
     * @param list scope names separated by commas
     * @return the scopes named
     * @throws IllegalArgumentException if a name in the list is not a scope's, an empty one
     *     included
     */
    public static Set<Scope> namedIn(String list) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : list.split(",", -1)) {
            scopes.add(named(name));
        }
        return Set.copyOf(scopes);
    }

    /**
     * The name used in token files and messages.
     *
     * @return the lowercase name
     */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
