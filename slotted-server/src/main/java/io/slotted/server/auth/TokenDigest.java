package io.slotted.server.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The SHA-256 digest of a token: what a token file's hashed line holds and what a presented token
 * is compared by.
 *
 * <p>Plain SHA-256, without a salt and without a slow hash such as bcrypt, is enough here because
 * the tokens {@link TokenFile#create} makes are 32 bytes from {@link java.security.SecureRandom}.
 * A salt stops precomputed tables and a slow hash slows guessing, and both matter for secrets that
 * people choose, which are few enough to guess; nobody can guess among 2<sup>256</sup> tokens,
 * fast or slow, so both would add nothing but cost. A slow hash would even harm: every request
 * digests its token once and compares the digest with every entry, so a hash that takes 100 ms
 * would let anyone tie up the service with requests carrying made-up tokens. (A token someone
 * makes up and hashes by hand is as weak as their choice; use {@code slotted token create}.)
 */
final class TokenDigest {
    /** How a hashed line's digest is written: {@code sha256:} and 64 lowercase hex digits. */
    static final String PREFIX = "sha256:";
    private static final Pattern HEX = Pattern.compile("[0-9a-f]{64}");
    private static final HexFormat LOWERCASE_HEX = HexFormat.of();

    private final byte[] bytes;

    private TokenDigest(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * The digest of a token.
     *
     * @param token the token as presented or written in a plain line
     * @return its SHA-256 digest
     */
    static TokenDigest of(String token) {
        try {
            return new TokenDigest(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /**
     * Reads a digest as a hashed line writes it.
     *
     * @param text {@code sha256:} and 64 lowercase hex digits
     * @return the digest
     * @throws IllegalArgumentException if the text is not of that form
     */
    static TokenDigest parse(String text) {
        if (!text.startsWith(PREFIX) || !HEX.matcher(text.substring(PREFIX.length())).matches()) {
            throw new IllegalArgumentException("a token's hash must be '" + PREFIX
                    + "' and 64 lowercase hex digits, such as 'slotted token create' writes");
        }
        return new TokenDigest(LOWERCASE_HEX.parseHex(text, PREFIX.length(), text.length()));
    }

    /**
     * Whether two digests are equal, in a time that does not depend on where they differ.
     *
     * @param other another digest
     * @return true if both are the digest of the same token
     */
    boolean matches(TokenDigest other) {
        return MessageDigest.isEqual(bytes, other.bytes);
    }

    /**
     * The digest as a hashed line writes it.
     *
     * @return {@code sha256:} and 64 lowercase hex digits
     */
    String text() {
        return PREFIX + LOWERCASE_HEX.formatHex(bytes);
    }
}
