package io.slotted.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The bearer tokens a service accepts, each with its scopes, as read from a token file.
 *
 * <p>A token file has one token per line, {@code <token> <scope>[,<scope>…]}, with scopes
 * {@code read}, {@code write} and {@code admin}; {@code #} at the start of a line or after
 * whitespace starts a comment, and blank lines are ignored.
 *
 * <p>Only SHA-256 digests of the tokens are kept. A lookup digests the presented token and compares
 * it with every known digest using {@link MessageDigest#isEqual}, without stopping at a match, so
 * the time a lookup takes says nothing about how much of a token was right, nor which one matched.
 * Tokens never appear in messages or logs; a bad line is named by its number.
 */
public final class AccessTokens implements AccessCheck {
    private final List<Entry> entries;

    private record Entry(byte[] digest, Set<Scope> scopes) {
    }

    private AccessTokens(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads a token file.
     *
     * @param file the token file
     * @return the tokens in it
     * @throws IllegalArgumentException if the file cannot be read, a line is malformed, a token
     *     appears twice, or there is no token at all
     */
    public static AccessTokens read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + ": " + e, e);
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = withoutComment(withoutByteOrderMark(lines.get(i), i)).strip();
            if (!line.isEmpty()) {
                entries.add(parse(line, file + " line " + (i + 1), entries));
            }
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("the token file " + file
                    + " holds no token: add lines of the form '<token> read,write'");
        }
        return new AccessTokens(entries);
    }

    /**
     * The scopes of a presented token, looked up in constant time.
     *
     * @param token the token from an {@code Authorization: Bearer} header
     * @return its scopes, or empty if the token is unknown
     */
    public Optional<Set<Scope>> scopesOf(String token) {
        byte[] digest = sha256(token);
        Set<Scope> found = null;
        for (Entry entry : entries) {
            // Every entry is compared, match or not: no early exit that a clock could observe.
            if (MessageDigest.isEqual(entry.digest(), digest)) {
                found = entry.scopes();
            }
        }
        return Optional.ofNullable(found);
    }

    /**
     * Decides on a presented token: it must be known and hold a scope that covers the one
     * required.
     *
     * @param token the presented token, or null when none was presented
     * @param required the scope the action needs
     * @return {@link AccessDecision#GRANTED}, or why not
     */
    @Override
    public AccessDecision check(String token, Scope required) {
        if (token == null || token.isBlank()) {
            return AccessDecision.NO_TOKEN;
        }
        return scopesOf(token)
                .map(scopes -> scopes.stream().anyMatch(scope -> scope.covers(required))
                        ? AccessDecision.GRANTED : AccessDecision.LACKS_SCOPE)
                .orElse(AccessDecision.UNKNOWN_TOKEN);
    }

    /**
     * How many tokens were read, for the start-up log line.
     *
     * @return the number of tokens
     */
    public int size() {
        return entries.size();
    }

    private static Entry parse(String line, String where, List<Entry> seen) {
        String[] parts = line.split("\\s+");
        if (parts.length != 2) {
            throw new IllegalArgumentException(where + " must be '<token> <scope>[,<scope>...]'"
                    + " with no spaces inside the token or the scope list");
        }
        byte[] digest = sha256(parts[0]);
        if (seen.stream().anyMatch(e -> MessageDigest.isEqual(e.digest(), digest))) {
            throw new IllegalArgumentException(where + " repeats a token given on an earlier line");
        }
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (String name : parts[1].split(",", -1)) {
            try {
                scopes.add(Scope.named(name));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
            }
        }
        return new Entry(digest, Set.copyOf(scopes));
    }

    /** Editors on some systems start a UTF-8 file with a byte-order mark; it is not part of a token. */
    private static String withoutByteOrderMark(String line, int index) {
        return index == 0 && line.startsWith("\uFEFF") ? line.substring(1) : line;
    }

    private static String withoutComment(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
