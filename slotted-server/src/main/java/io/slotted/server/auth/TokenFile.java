package io.slotted.server.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Writes token files, so that they hold tokens' hashes and never the tokens: {@link #create} makes a
 * token and appends its hashed line, {@link #hashPlainTokens} turns a file's plain lines into hashed
 * ones. The format, and what makes a file well formed, is that of {@link AccessTokens}; a file is
 * checked before it is written, and one that is malformed is refused and left as it was.
 *
 * <p>A new token is 32 bytes from {@link SecureRandom}, written as {@code slt_} and the bytes in
 * unpadded base64url (43 characters). The prefix tells a person, and a secret scanner, what the
 * string is when it turns up in a chat or a commit.
 */
public final class TokenFile {
    private static final int TOKEN_BYTES = 32;
    private static final String TOKEN_PREFIX = "slt_";
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private TokenFile() {
    }

    /**
     * Makes a new token and appends its hashed line, {@code <name> sha256:<hex> <scopes>}, to a
     * token file, creating the file, readable and writable by its owner only, when it is missing.
     * The token itself is stored nowhere: the caller shows it once.
     *
     * @param file the token file
     * @param name the token's name, unique in the file
     * @param scopes what the token may do
     * @return the new token
     * @throws IllegalArgumentException if the name does not follow the rule of token names or is
     *     taken, no scope is given, or the file cannot be read or is malformed (it is then left
     *     unchanged)
     * @throws UncheckedIOException if the file cannot be written
     */
    public static String create(Path file, String name, Set<Scope> scopes) {
        TokenLine.checkedName(name);
        if (scopes.isEmpty()) {
            throw new IllegalArgumentException("a token needs at least one scope: read, write or admin");
        }
        TokenFileLines lines = TokenFileLines.readIfPresent(file);
        lines.named(name).ifPresent(taken -> {
            throw new IllegalArgumentException("the token name '" + name + "' is taken by line "
                    + taken.number() + " of " + file + ": names must be unique in a token file,"
                    + " so choose another");
        });
        String token = newToken();
        String line = TokenLine.hashedText(name, TokenDigest.of(token), scopes);
        append(file, (lines.lastLineOpen() ? lines.lineBreak() : "") + line + lines.lineBreak());
        return token;
    }

    /**
     * Rewrites a token file so that every line holding a token itself holds its hash instead, with
     * the same scopes and any comment that ended it, under the name {@code line-N} (N its line
     * number; {@code line-N-2} and so on if another token has that name). Comments, blank lines and
     * hashed lines are kept as they were. The tokens keep working: the file holds their digests.
     *
     * <p>The new text goes to a temporary file beside the old one, which takes the old one's
     * permissions (and owner and group, where the process may set them) and then replaces it in one
     * atomic move: a reader sees the old file or the new one, and a failure leaves the old one.
     *
     * @param file the token file
     * @return how many lines were converted; 0 leaves the file untouched
     * @throws IllegalArgumentException if the file cannot be read or is malformed (it is then left
     *     unchanged)
     * @throws UncheckedIOException if the file cannot be replaced
     */
    public static int hashPlainTokens(Path file) {
        TokenFileLines lines = TokenFileLines.read(file);
        List<TokenLine> plain = lines.tokens().stream().filter(line -> !line.hashed()).toList();
        if (plain.isEmpty()) {
            return 0;
        }
        List<String> text = new ArrayList<>(lines.text());
        Set<String> names = new HashSet<>(lines.tokens().stream().map(TokenLine::name).toList());
        for (TokenLine line : plain) {
            String name = freeName("line-" + line.number(), names);
            names.add(name);
            text.set(line.number() - 1, TokenLine.hashedText(name, line.digest(), line.scopes())
                    + (line.comment().isEmpty() ? "" : " " + line.comment()));
        }
        replace(file, String.join(lines.lineBreak(), text) + lines.lineBreak());
        return plain.size();
    }

    private static String newToken() {
        byte[] bytes = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(bytes);
        return TOKEN_PREFIX + BASE64URL.encodeToString(bytes);
    }

    private static String freeName(String wanted, Set<String> taken) {
        String name = wanted;
        for (int n = 2; taken.contains(name); n++) {
            name = wanted + "-" + n;
        }
        return name;
    }

    private static void append(Path file, String text) {
        try {
            if (Files.notExists(file)) {
                Files.createFile(file, ownerOnly(file));
            }
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the token file " + file + ": " + e, e);
        }
    }

    /** Readable and writable by the owner alone, where the file system has POSIX permissions. */
    private static FileAttribute<?>[] ownerOnly(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    private static void replace(Path file, String text) {
        Path temporary = null;
        try {
            // Through a link, its target is replaced and the link kept.
            Path target = file.toRealPath();
            temporary = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
            // Copying the attributes sets permissions, owner and group as the old file has them;
            // owner and group only where this process may set them.
            Files.copy(target, temporary, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.COPY_ATTRIBUTES);
            writeDurably(temporary, text);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite the token file " + file + ": " + e, e);
        } finally {
            deleteQuietly(temporary);
        }
    }

    /** Forced to disk before the move, so that a crash cannot leave an empty file in its place. */
    private static void writeDurably(Path file, String text) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
    }

    private static void deleteQuietly(Path temporary) {
        if (temporary != null) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException e) {
                // Only a leftover after a failure already reported; the failure is what matters.
            }
        }
    }
}
