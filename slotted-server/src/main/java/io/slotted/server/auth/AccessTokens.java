package io.slotted.server.auth;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The bearer tokens a service accepts, each with its name and scopes, as read from a token file.
 *
 * <p>A token file has one token per line, with scopes {@code read}, {@code write} and
 * {@code admin}, in either of two forms: {@code <name> sha256:<64 lowercase hex> <scope>[,<scope>…]},
 * which holds only the token's digest ({@code slotted token create} writes these), or
 * {@code <token> <scope>[,<scope>…]}, the token itself, named {@code line N} after its line. Plain
 * lines keep working, but anyone who reads the file can use their tokens, so the service warns of
 * them ({@link #plainTokenLines()}) and {@code slotted token hash} converts them. {@code #} at the
 * start of a line or after whitespace starts a comment, and blank lines are ignored. Why a plain
 * SHA-256 is enough is told in {@link TokenDigest}.
 *
 * <p>Only SHA-256 digests of the tokens are kept. A lookup digests the presented token and compares
 * it with every known digest using {@link java.security.MessageDigest#isEqual}, without stopping at
 * a match, so the time a lookup takes says nothing about how much of a token was right, nor which
 * one matched. Tokens never appear in messages or logs: a token is spoken of by its name, a bad
 * line by its number.
 */
public final class AccessTokens implements AccessCheck {
    private final List<TokenLine> entries;

    private AccessTokens(List<TokenLine> entries) {
        this.entries = entries;
    }

    /**
     * Reads a token file.
     *
     * @param file the token file
     * @return the tokens in it
     * @throws IllegalArgumentException if the file cannot be read, a line is malformed, a name or a
     *     token appears twice, or there is no token at all
     */
    public static AccessTokens read(Path file) {
        List<TokenLine> entries = TokenFileLines.read(file).tokens();
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("the token file " + file + " holds no token: make one"
                    + " with 'slotted token create NAME --scope write --tokens " + file + "'");
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
        return find(token).map(TokenLine::scopes);
    }

    /**
     * The name of a presented token, looked up in constant time, so that a log may say whose
     * request it was without the token.
     *
     * @param token the presented token
     * @return its name ({@code line N} for a plain line), or empty if the token is unknown
     */
    public Optional<String> nameOf(String token) {
        return find(token).map(TokenLine::name);
    }

    private Optional<TokenLine> find(String token) {
        TokenDigest digest = TokenDigest.of(token);
        TokenLine found = null;
        for (TokenLine entry : entries) {
            // Every entry is compared, match or not: no early exit that a clock could observe.
            if (entry.digest().matches(digest)) {
                found = entry;
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

    /**
     * The names of the tokens, hashed lines by the names they give and plain lines as
     * {@code line N}.
     *
     * @return the names in file order
     */
    public List<String> names() {
        return entries.stream().map(TokenLine::name).toList();
    }

    /**
     * The lines that hold a token itself rather than its hash, for a warning at start-up: anyone
     * who can read the file can use those tokens until {@code slotted token hash} converts them.
     *
     * @return their line numbers, from 1, in file order; empty when every line is hashed
     */
    public List<Integer> plainTokenLines() {
        return entries.stream().filter(entry -> !entry.hashed()).map(TokenLine::number).toList();
    }
}
