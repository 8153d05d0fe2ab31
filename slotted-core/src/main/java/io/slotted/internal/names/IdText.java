package io.slotted.internal.names;

import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The rules for ids and type names as text, in one place: which ids are numbers, which strings
 * may be ids, which may be type names.
 */
public final class IdText {
    /** The longest string id, in bytes of UTF-8. */
    public static final int MAX_ID_BYTES = 512;
    /** Every mapped id is below this, −2^62; numeric ids below it are refused. */
    public static final long MAPPED_IDS_END = -(1L << 62);
    /** What a type name looks like: lowercase, starting with a letter, at most 63 characters. */
    public static final Pattern TYPE_NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    private static final String NUMERIC_RANGE = "numeric ids from -9223372036854775808 to"
            + " -4611686018427387905 are kept for string ids";

    private IdText() {
    }

    /**
     * The number an id is by itself, checking a string id's shape on the way.
     *
     * @param id the id as given
     * @return the number, or empty for a string id
     * @throws IllegalArgumentException if the id may not be used
     */
    public static OptionalLong numberOf(String id) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("an id must be a number or a string of 1 to "
                    + MAX_ID_BYTES + " bytes, but was empty");
        }
        if (isDecimal(id)) {
            long number = parse(id);
            if (number != Long.MAX_VALUE || !overflows(id)) {
                if (number < MAPPED_IDS_END) {
                    throw new IllegalArgumentException("id " + id + " is out of range: " + NUMERIC_RANGE
                            + "; use a larger number or a string");
                }
                return OptionalLong.of(number);
            }
        }
        checkString(id);
        return OptionalLong.empty();
    }

    /**
     * Checks a type name.
     *
     * @param name the name as given
     * @throws IllegalArgumentException unless it matches {@link #TYPE_NAME}
     */
    public static void checkTypeName(String name) {
        if (name == null || !TYPE_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("type name '" + excerpt(name) + "' is malformed: a type"
                    + " name is 1 to 63 lowercase letters, digits and _, starting with a letter");
        }
    }

    /** Length in UTF-8 without encoding; NUL and lone surrogates refused. */
    private static void checkString(String id) {
        int bytes = 0;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == 0) {
                throw new IllegalArgumentException("an id may not hold the NUL character");
            }
            if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("an id must be valid Unicode, but holds a lone"
                        + " surrogate at character " + i);
            } else {
                bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
            }
        }
        if (bytes > MAX_ID_BYTES) {
            throw new IllegalArgumentException("an id is at most " + MAX_ID_BYTES
                    + " bytes of UTF-8, but '" + excerpt(id) + "' has " + bytes);
        }
    }

    /** {@code -?[0-9]+}, checked by hand: this runs once per request. */
    private static boolean isDecimal(String text) {
        int first = text.charAt(0) == '-' ? 1 : 0;
        if (first == text.length()) {
            return false;
        }
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The decimal's value, or {@link Long#MAX_VALUE} when it does not fit. */
    private static long parse(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    private static boolean overflows(String digits) {
        return !digits.replaceFirst("^0+(?=.)", "").equals(Long.toString(Long.MAX_VALUE));
    }

    /**
     * The start of a text for messages: at most 40 characters.
     *
     * @param text any text, or null
     * @return the excerpt
     */
    public static String excerpt(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
