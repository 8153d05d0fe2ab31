package io.slotted.server.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * Reads certificates and private keys from PEM text, in the forms certificate tools write:
 * {@code CERTIFICATE} blocks, and keys as PKCS#8 ({@code PRIVATE KEY}), PKCS#1
 * ({@code RSA PRIVATE KEY}) or SEC1 ({@code EC PRIVATE KEY}). OpenSSL, ACME clients and
 * cert-manager each pick a different one by default, which is why the parsing is Bouncy Castle's
 * rather than the JDK's, which reads PKCS#8 alone. Keys become JDK keys, so TLS itself stays the
 * JDK's.
 *
 * <p>Encrypted keys are refused: a service that restarts and re-reads its key unattended would need
 * the password beside the key, which protects nothing.
 */
final class PemFiles {
    private PemFiles() {
    }

    /**
     * The certificates of PEM text, in order.
     *
     * @param pem the text of a PEM file
     * @param file the file's name, for messages
     * @return at least one certificate
     * @throws IllegalArgumentException if the text holds no certificate or a malformed one
     */
    static List<X509Certificate> certificates(byte[] pem, String file) {
        List<X509Certificate> certificates = new ArrayList<>();
        JcaX509CertificateConverter converter = new JcaX509CertificateConverter();
        try (PEMParser parser = parser(pem)) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                if (block instanceof X509CertificateHolder holder) {
                    certificates.add(converter.getCertificate(holder));
                }
            }
        } catch (IOException | CertificateException e) {
            throw new IllegalArgumentException(file + " is not a PEM certificate file: "
                    + e.getMessage(), e);
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException(file + " holds no '-----BEGIN CERTIFICATE-----'"
                    + " block: give the PEM certificate chain, the service's own certificate first");
        }
        return certificates;
    }

    /**
     * The first private key of PEM text.
     *
     * @param pem the text of a PEM file
     * @param file the file's name, for messages
     * @return the key
     * @throws IllegalArgumentException if the text holds no private key, or only an encrypted one
     */
    static PrivateKey privateKey(byte[] pem, String file) {
        JcaPEMKeyConverter converter = new JcaPEMKeyConverter();
        try (PEMParser parser = parser(pem)) {
            for (Object block = parser.readObject(); block != null; block = parser.readObject()) {
                if (block instanceof PEMKeyPair pair) {
                    return converter.getPrivateKey(pair.getPrivateKeyInfo());
                }
                if (block instanceof PrivateKeyInfo info) {
                    return converter.getPrivateKey(info);
                }
                if (block instanceof PEMEncryptedKeyPair || block instanceof PKCS8EncryptedPrivateKeyInfo) {
                    throw new IllegalArgumentException(file + " holds an encrypted private key:"
                            + " give it unencrypted (openssl pkey -in " + file + " -out key.pem),"
                            + " readable by the service's user alone");
                }
            }
        } catch (PEMException e) {
            throw new IllegalArgumentException(file + " holds a private key that cannot be read: "
                    + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not a PEM key file: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(file + " holds no private key: give the PEM key"
                + " ('-----BEGIN PRIVATE KEY-----', RSA or EC) of the certificate");
    }

    private static PEMParser parser(byte[] pem) {
        Reader text = new StringReader(new String(pem, StandardCharsets.UTF_8));
        return new PEMParser(text);
    }
}
