package io.slotted.server.doctor.locks;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Statements as a person reads them in a report: literals replaced by {@code ?}, so that every
 * execution of one statement reads the same; and the one shape Slotted replaces, an
 * {@code UPDATE t SET n = n + ? WHERE id = ?} of one row.
 */
public final class Statements {
    private static final Pattern STRING = Pattern.compile("'(?:[^'\\\\]|\\\\.|'')*'");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w$.])-?\\d+(?:\\.\\d+)?(?![\\w$])");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    private static final String NAME = "([`\"]?[A-Za-z_][\\w$]*[`\"]?(?:\\.[`\"]?[A-Za-z_][\\w$]*[`\"]?)?)";
    private static final Pattern COUNTER_UPDATE = Pattern.compile("(?i)^update\\s+" + NAME
            + "\\s+set\\s+" + NAME + "\\s*=\\s*" + NAME + "\\s*[+-]\\s*\\?\\s+where\\s+" + NAME
            + "\\s*=\\s*\\?\\s*;?$");

    private Statements() {
    }

    /**
     * A statement with its literals replaced by {@code ?} and its white space collapsed.
     *
     * @param sql the statement as the database showed it, or null
     * @return the normalised text; empty for null
     */
    public static String normalise(String sql) {
        if (sql == null) {
            return "";
        }
        String text = STRING.matcher(sql).replaceAll("?");
        text = NUMBER.matcher(text).replaceAll("?");
        text = text.replace("$", "?").replaceAll("\\?\\d+", "?");
        return SPACE.matcher(text).replaceAll(" ").strip();
    }

    /**
     * The parts of a counter-shaped statement: an {@code UPDATE} that adds to one column of the
     * row with the given key.
     *
     * @param normalised a statement as {@link #normalise} gives it
     * @return the table, counted column and key column, or empty for any other statement
     */
    public static Optional<CounterUpdate> counterUpdate(String normalised) {
        Matcher update = COUNTER_UPDATE.matcher(normalised);
        if (!update.matches()) {
            return Optional.empty();
        }
        String column = unquote(update.group(2));
        if (!column.equalsIgnoreCase(unquote(update.group(3)))) {
            return Optional.empty();
        }
        return Optional.of(new CounterUpdate(unquote(update.group(1)), column, unquote(update.group(4))));
    }

    private static String unquote(String name) {
        return name.replace("`", "").replace("\"", "");
    }

    /**
     * An {@code UPDATE table SET column = column + ? WHERE key = ?}.
     *
     * @param table the table as the statement names it
     * @param column the counted column
     * @param key the key column
     */
    public record CounterUpdate(String table, String column, String key) {
    }
}
