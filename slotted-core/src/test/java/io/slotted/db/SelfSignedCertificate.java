package io.slotted.db;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;

/**
 * A certificate and its key for {@code localhost}, as the PEM files a database server reads, made
 * with the JDK's own {@code keytool} so that a test needs nothing else installed.
 *
 * @param certificate the certificate's file
 * @param key the unencrypted PKCS#8 key's file, readable by its owner alone (PostgreSQL refuses a
 *     key others can read)
 */
public record SelfSignedCertificate(Path certificate, Path key) {
    private static final char[] PASSWORD = "slotted-test".toCharArray();

    /** Makes a fresh certificate and key in {@code directory}, valid for two days. */
    public static SelfSignedCertificate in(Path directory) {
        try {
            Files.createDirectories(directory);
            Path store = directory.resolve("server.p12");
            Files.deleteIfExists(store);
            keytool("-genkeypair", "-alias", "server", "-keyalg", "EC", "-dname", "CN=localhost",
                    "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12",
                    "-keystore", store.toString(), "-storepass", new String(PASSWORD));
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, PASSWORD);
            }
            Path certificate = pem(directory.resolve("server.crt"), "CERTIFICATE",
                    keys.getCertificate("server").getEncoded());
            Path key = pem(directory.resolve("server.key"), "PRIVATE KEY", keys.getKey("server", PASSWORD).getEncoded());
            Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
            return new SelfSignedCertificate(certificate, key);
        } catch (IOException e) {
            throw new UncheckedIOException("could not make a certificate in " + directory, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not read the certificate keytool made in " + directory, e);
        }
    }

    private static void keytool(String... arguments) throws IOException {
        String[] command = new String[arguments.length + 1];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (keytool.waitFor() != 0) {
                throw new IOException("keytool failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
    }

    private static Path pem(Path file, String label, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return Files.writeString(file, "-----BEGIN " + label + "-----\n" + body + "\n-----END " + label + "-----\n");
    }
}
