package io.slotted.server.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A token file as read: the text of every line, and the {@link TokenLine lines that hold tokens},
 * each checked and all checked against each other. Reading it is the one place that decides
 * whether a token file is well formed, for the service that accepts its tokens and for the
 * commands that write it alike.
 *
 * <p>{@code #} at the start of a line or after whitespace starts a comment (a token may hold a
 * {@code #} elsewhere), and blank lines are ignored. Names must be unique, and so must tokens: a
 * plain token whose digest a hashed line holds too is the same token twice.
 */
final class TokenFileLines {
    private final List<String> text;
    private final List<TokenLine> tokens;
    private final String lineBreak;
    private final boolean lastLineOpen;

    private TokenFileLines(String content, List<String> text, List<TokenLine> tokens) {
        this.text = text;
        this.tokens = List.copyOf(tokens);
        // What the file's editor chose is kept, so that rewriting a line changes only that line.
        this.lineBreak = content.contains("\r\n") ? "\r\n" : "\n";
        this.lastLineOpen = !content.isEmpty() && !content.endsWith("\n") && !content.endsWith("\r");
    }

    /**
     * Reads and checks a token file.
     *
     * @param file the token file
     * @return its lines
     * @throws IllegalArgumentException if the file cannot be read, a line is malformed, or a name or
     *     token appears twice
     */
    static TokenFileLines read(Path file) {
        try {
            return parse(file, Files.readString(file, StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("the token file " + file + " does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the token file " + file + ": " + e, e);
        }
    }

    /**
     * Reads and checks a token file that may not exist yet.
     *
     * @param file the token file
     * @return its lines, or none if there is no such file
     * @throws IllegalArgumentException as {@link #read(Path)} does for a file that exists
     */
    static TokenFileLines readIfPresent(Path file) {
        return Files.exists(file) ? read(file) : new TokenFileLines("", List.of(), List.of());
    }

    private static TokenFileLines parse(Path file, String content) {
        List<String> text = content.lines().toList();
        List<TokenLine> tokens = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            String line = withoutByteOrderMark(text.get(i), i);
            int comment = commentStart(line);
            String fields = line.substring(0, comment).strip();
            if (!fields.isEmpty()) {
                tokens.add(checked(file, tokens, i + 1, fields, line.substring(comment)));
            }
        }
        return new TokenFileLines(content, text, tokens);
    }

    private static TokenLine checked(Path file, List<TokenLine> earlier, int number, String content,
            String comment) {
        String where = file + " line " + number;
        TokenLine line;
        try {
            line = TokenLine.parse(content, comment, number);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        for (TokenLine other : earlier) {
            if (other.name().equals(line.name())) {
                throw new IllegalArgumentException(where + " repeats the name '" + line.name()
                        + "' of line " + other.number() + ": give each token a name of its own");
            }
            if (other.digest().matches(line.digest())) {
                throw new IllegalArgumentException(where + " holds the same token as line "
                        + other.number() + (other.hashed() ? ", named " + other.name() : "")
                        + ": keep one of the two lines");
            }
        }
        return line;
    }

    /** Editors on some systems start a UTF-8 file with a byte-order mark; it is not part of a token. */
    private static String withoutByteOrderMark(String line, int index) {
        return index == 0 && line.startsWith("\uFEFF") ? line.substring(1) : line;
    }

    private static int commentStart(String line) {
        for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return i;
            }
        }
        return line.length();
    }

    /**
     * Every line of the file as it was read, comments and blank lines included.
     *
     * @return the lines, first line first
     */
    List<String> text() {
        return text;
    }

    /**
     * The lines that hold tokens.
     *
     * @return the token lines in file order
     */
    List<TokenLine> tokens() {
        return tokens;
    }

    /**
     * The line break the file uses.
     *
     * @return {@code \r\n} if the file has any, else {@code \n}
     */
    String lineBreak() {
        return lineBreak;
    }

    /**
     * Whether the file's last line has no line break, so that a line appended must start with one.
     *
     * @return true if the file is not empty and does not end with a line break
     */
    boolean lastLineOpen() {
        return lastLineOpen;
    }

    /**
     * The line that holds the token of a name.
     *
     * @param name a token's name
     * @return the line, or empty if no token has that name
     */
    Optional<TokenLine> named(String name) {
        return tokens.stream().filter(line -> line.name().equals(name)).findFirst();
    }
}
