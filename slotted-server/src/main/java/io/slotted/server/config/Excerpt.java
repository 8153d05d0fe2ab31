package io.slotted.server.config;

/**
 * A value quoted in a message, cut short: a value comes from a request or a command line and may be
 * of any length, while a message or a log line that quotes it should stay readable.
 */
public final class Excerpt {
    private static final int MAX_LENGTH = 80;
    private static final String ELLIPSIS = "...";

    private Excerpt() {
    }

    /**
     * The text, or its start followed by {@code ...} when it is longer than 80 characters.
     *
     * @param text the value to quote
     * @return at most 80 characters
     */
    public static String of(String text) {
        return text.length() <= MAX_LENGTH ? text
                : text.substring(0, MAX_LENGTH - ELLIPSIS.length()) + ELLIPSIS;
    }
}
