package io.slotted.campaign.faults;

import io.slotted.internal.dialect.Dialect;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * What marks a request that carries a commit: the word {@code COMMIT} on its own, in capitals as
 * both drivers send it (not {@code autocommit}, nor the isolation level {@code READ COMMITTED} that
 * Slotted sets before its transactions), or Slotted's flush comment, which begins a flush that
 * commits by itself in auto-commit.
 */
final class CommitMarker {
    private static final Pattern MARKER = Pattern.compile("(?<!\\w)COMMIT(?!\\w)|"
            + Pattern.quote(Dialect.FLUSH_COMMENT.trim()));

    private CommitMarker() {
    }

    /** Whether {@code bytes[from..to)} hold a commit's marker. */
    static boolean isIn(byte[] bytes, int from, int to) {
        // ISO-8859-1 maps each byte to one char, so what the drivers send in ASCII reads as sent.
        return MARKER.matcher(new String(bytes, from, to - from, StandardCharsets.ISO_8859_1)).find();
    }
}
