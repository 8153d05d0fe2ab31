package io.slotted.server.tls;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made by a test, and the server and client certificates it issues, as
 * PEM files and as the TLS contexts clients need: nothing secret is kept in the repository, and
 * every run has keys of its own.
 */
public final class TestCertificates {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A certificate and the key pair it was issued for. */
    public record Issued(KeyPair keys, X509Certificate certificate) {
    }

    private final Issued authority;

    private TestCertificates(Issued authority) {
        this.authority = authority;
    }

    /**
     * A new certificate authority.
     *
     * @param name its common name
     * @return the authority
     */
    public static TestCertificates authority(String name) {
        KeyPair keys = keyPair("EC");
        X500Name subject = new X500Name("CN=" + name);
        return new TestCertificates(new Issued(keys, sign(subject, keys, subject, keys.getPrivate(),
                Duration.ofDays(2), builder -> {
                    builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
                    builder.addExtension(Extension.keyUsage, true,
                            new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
                })));
    }

    /**
     * A server certificate for {@code localhost} and {@code 127.0.0.1}.
     *
     * @param name its common name, which tests read back from handshakes
     * @param algorithm {@code RSA} or {@code EC}
     * @param validFor how long from now it is valid; negative for one that has expired
     * @return the certificate and its keys
     */
    public Issued server(String name, String algorithm, Duration validFor) {
        KeyPair keys = keyPair(algorithm);
        return new Issued(keys, sign(new X500Name("CN=" + name), keys,
                subjectOf(authority), authority.keys().getPrivate(), validFor, builder -> {
                    builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(
                            new GeneralName[] {new GeneralName(GeneralName.dNSName, "localhost"),
                                new GeneralName(GeneralName.iPAddress, "127.0.0.1")}));
                    builder.addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
                }));
    }

    /**
     * A client certificate, for mutual TLS.
     *
     * @param name its common name
     * @return the certificate and its keys
     */
    public Issued client(String name) {
        KeyPair keys = keyPair("EC");
        return new Issued(keys, sign(new X500Name("CN=" + name), keys, subjectOf(authority),
                authority.keys().getPrivate(), Duration.ofDays(1), builder -> builder.addExtension(
                        Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth))));
    }

    /**
     * Writes the authority's certificate as PEM, as clients and {@code --tls-client-ca} take it.
     *
     * @param file where to write
     * @return the file
     */
    public Path writeAuthority(Path file) {
        return writeCertificate(file, authority);
    }

    /**
     * Writes a certificate as PEM.
     *
     * @param file where to write
     * @param issued the certificate
     * @return the file
     */
    public static Path writeCertificate(Path file, Issued issued) {
        return write(file, pem(issued.certificate()));
    }

    /**
     * Writes a private key as PKCS#8 PEM ({@code BEGIN PRIVATE KEY}).
     *
     * @param file where to write
     * @param issued the certificate whose key it is
     * @return the file
     */
    public static Path writePkcs8Key(Path file, Issued issued) {
        try {
            return write(file, pem(new JcaPKCS8Generator(issued.keys().getPrivate(), null)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a private key in OpenSSL's traditional PEM form: PKCS#1 ({@code BEGIN RSA PRIVATE
     * KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}), as cert-manager writes them by default. The
     * {@code openssl} command writes it, so the file is what that tool makes.
     *
     * @param file where to write
     * @param issued the certificate whose key it is
     * @return the file
     */
    public static Path writeTraditionalKey(Path file, Issued issued) {
        Path pkcs8 = writePkcs8Key(file.resolveSibling(file.getFileName() + ".pkcs8"), issued);
        try {
            Process openssl = new ProcessBuilder("openssl", "pkey", "-in", pkcs8.toString(),
                    "-traditional", "-out", file.toString()).redirectErrorStream(true).start();
            String output = new String(openssl.getInputStream().readAllBytes());
            if (openssl.waitFor() != 0) {
                throw new IllegalStateException("openssl pkey -traditional failed: " + output);
            }
            Files.delete(pkcs8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Replaces a key file in one atomic rename, as certificate tools renew files in place.
     *
     * @param file the key file to replace
     * @param issued the certificate whose key it becomes
     * @throws UncheckedIOException if the file cannot be replaced
     */
    public static void replaceKey(Path file, Issued issued) {
        renameOver(writePkcs8Key(file.resolveSibling(file.getFileName() + ".new"), issued), file);
    }

    /**
     * Replaces a certificate file in one atomic rename, as certificate tools renew files in place.
     *
     * @param file the certificate file to replace
     * @param issued the certificate it becomes
     * @throws UncheckedIOException if the file cannot be replaced
     */
    public static void replaceCertificate(Path file, Issued issued) {
        renameOver(writeCertificate(file.resolveSibling(file.getFileName() + ".new"), issued), file);
    }

    /**
     * Renews a pair of files: the key, then the certificate, each in one atomic rename.
     *
     * @param certificate the certificate file
     * @param key the key file
     * @param issued the renewed certificate and its key
     * @throws UncheckedIOException if a file cannot be replaced
     */
    public static void renew(Path certificate, Path key, Issued issued) {
        replaceKey(key, issued);
        replaceCertificate(certificate, issued);
    }

    private static void renameOver(Path written, Path file) {
        try {
            Files.move(written, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A client TLS context that trusts this authority alone.
     *
     * @return the context
     */
    public SSLContext trustingClient() {
        return clientContext(null);
    }

    /**
     * A client TLS context that trusts this authority and presents a certificate.
     *
     * @param certificate the client certificate and its key
     * @return the context
     */
    public SSLContext clientContext(Issued certificate) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", authority.certificate());
            TrustManagerFactory trusting = TrustManagerFactory.getInstance("PKIX");
            trusting.init(trust);
            KeyManagerFactory presenting = null;
            if (certificate != null) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", certificate.keys().getPrivate(), new char[0],
                        new X509Certificate[] {certificate.certificate()});
                presenting = KeyManagerFactory.getInstance("PKIX");
                presenting.init(keys, new char[0]);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(presenting == null ? null : presenting.getKeyManagers(),
                    trusting.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Extensions {
        void add(X509v3CertificateBuilder builder) throws IOException;
    }

    private static X509Certificate sign(X500Name subject, KeyPair keys, X500Name issuer,
            PrivateKey issuerKey, Duration validFor, Extensions extensions) {
        Instant now = Instant.now();
        Instant from = validFor.isNegative() ? now.plus(validFor).minus(Duration.ofDays(1))
                : now.minus(Duration.ofMinutes(5));
        Instant until = now.plus(validFor);
        try {
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                    new BigInteger(64, RANDOM), Date.from(from), Date.from(until), subject,
                    keys.getPublic());
            extensions.add(builder);
            String algorithm = issuerKey.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
            return new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder(algorithm).build(issuerKey)));
        } catch (IOException | GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X500Name subjectOf(Issued issued) {
        return X500Name.getInstance(issued.certificate().getSubjectX500Principal().getEncoded());
    }

    private static KeyPair keyPair(String algorithm) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(algorithm);
            generator.initialize(algorithm.equals("RSA") ? 2048 : 256);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pem(Object object) {
        StringWriter text = new StringWriter();
        try (JcaPEMWriter writer = new JcaPEMWriter(text)) {
            writer.writeObject(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    private static Path write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
