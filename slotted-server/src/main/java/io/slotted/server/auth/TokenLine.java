package io.slotted.server.auth;

import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One line of a token file that holds a token, in either of its two forms:
 * <ul>
 *   <li>hashed, {@code <name> sha256:<64 lowercase hex> <scope>[,<scope>…]}: the file holds only the
 *       token's digest, and the name by which logs and messages may speak of it;
 *   <li>plain, {@code <token> <scope>[,<scope>…]}: the token itself, which anyone who reads the
 *       file can use. Its name is {@code line N}, which no hashed line can take (names have no
 *       spaces).
 * </ul>
 * Messages never quote a field that may be a token: only names, scopes and line numbers.
 *
 * @param number the line's number in the file, from 1
 * @param name the hashed line's name, or {@code line N} for a plain line
 * @param digest the digest of the line's token
 * @param scopes what the token may do
 * @param hashed whether the line holds the token's digest rather than the token
 * @param comment the comment that ended the line, from its {@code #}, or empty
 */
record TokenLine(int number, String name, TokenDigest digest, Set<Scope> scopes, boolean hashed,
        String comment) {
    /** The rule every token name follows, as messages state it. */
    static final String NAME_RULE = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";
    private static final Pattern NAME = Pattern.compile(NAME_RULE);
    private static final String FORMS = "'<token> <scope>[,<scope>...]' or '<name> "
            + TokenDigest.PREFIX + "<hex> <scope>[,<scope>...]'";

    /**
     * Reads a line that holds a token.
     *
     * @param content the line without its comment, stripped, not empty
     * @param comment the comment that ended the line, or empty
     * @param number the line's number, from 1
     * @return the line
     * @throws IllegalArgumentException if the line is malformed, saying what to fix without
     *     quoting a token
     */
    static TokenLine parse(String content, String comment, int number) {
        String[] fields = content.split("\\s+");
        if (fields.length == 3 && fields[1].startsWith(TokenDigest.PREFIX)) {
            // Surely hashed, so the first field is a name, which a message may quote.
            TokenDigest digest = TokenDigest.parse(fields[1]);
            return new TokenLine(number, checkedName(fields[0]), digest, Scope.namedIn(fields[2]), true, comment);
        }
        return plain(fields, comment, number);
    }

    private static TokenLine plain(String[] fields, String comment, int number) {
        if (fields.length != 2) {
            throw new IllegalArgumentException("a line must be " + FORMS
                    + ", with no spaces inside a field");
        }
        if (fields[1].startsWith(TokenDigest.PREFIX)) {
            throw new IllegalArgumentException("a hashed line needs scopes after its hash, as in '<name> "
                    + TokenDigest.PREFIX + "<hex> read,write'");
        }
        if (fields[0].startsWith(TokenDigest.PREFIX)) {
            // Read as a plain token, the digest itself would be the password: refuse it.
            throw new IllegalArgumentException("a hashed line needs a name before its hash, as in 'ci "
                    + TokenDigest.PREFIX + "<hex> " + fields[1] + "'");
        }
        return new TokenLine(number, "line " + number, TokenDigest.of(fields[0]), Scope.namedIn(fields[1]),
                false, comment);
    }

    /**
     * Checks a token's name.
     *
     * @param name the name a hashed line gives its token
     * @return the name
     * @throws IllegalArgumentException if the name does not follow {@link #NAME_RULE}
     */
    static String checkedName(String name) {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("a token name must match " + NAME_RULE + " (a letter"
                    + " or digit, then up to 63 letters, digits, '.', '_' or '-'), but was '" + name + "'");
        }
        return name;
    }

    /**
     * The text of a hashed line.
     *
     * @param name the token's name
     * @param digest the token's digest
     * @param scopes what the token may do, at least one
     * @return {@code <name> sha256:<hex> <scope>[,<scope>…]}, without a line break
     */
    static String hashedText(String name, TokenDigest digest, Set<Scope> scopes) {
        return name + " " + digest.text() + " " + scopes.stream().sorted().map(Scope::label)
                .collect(Collectors.joining(","));
    }
}
