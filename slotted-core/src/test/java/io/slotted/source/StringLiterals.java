package io.slotted.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The string literals of a source tree, for the tests that hold a rule about where some text may
 * be written (SQL only in the dialects, for one): each literal on one line, as Java writes it.
 */
public final class StringLiterals {
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\\\n]|\\\\.)*)\"");

    private StringLiterals() {
    }

    /**
     * The literals of the {@code .java} files under {@code sources}, but for those under any of
     * {@code allowedUnder}, whose text {@code pattern} finds.
     *
     * @param sources the source root
     * @param allowedUnder folders where such literals belong
     * @param pattern what a literal may not hold elsewhere
     * @return each as {@code path:line "literal"}, the path relative to {@code sources}
     * @throws IOException if a file cannot be read
     */
    public static List<String> matching(Path sources, List<Path> allowedUnder, Pattern pattern) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> allowedUnder.stream().noneMatch(f::startsWith)).toList()) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher literal = STRING.matcher(lines.get(i));
                    while (literal.find()) {
                        if (pattern.matcher(literal.group(1)).find()) {
                            found.add(sources.relativize(file) + ":" + (i + 1) + " " + literal.group());
                        }
                    }
                }
            }
        }
        return found;
    }
}
