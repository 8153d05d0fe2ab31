package io.slotted.server.tls;

import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;

/**
 * A certificate chain and the private key of its first certificate: what the service presents in
 * a TLS handshake.
 *
 * @param key the private key
 * @param chain the certificates, the service's own first
 */
record ServerIdentity(PrivateKey key, List<X509Certificate> chain) {
    private static final byte[] PROBE = "slotted: does the key belong to the certificate?".getBytes(
            java.nio.charset.StandardCharsets.US_ASCII);

    /**
     * Pairs a key with a chain, once the key is known to be the certificate's.
     *
     * @param key the private key
     * @param chain the certificates, the service's own first
     * @param files the files they came from, for messages
     * @return the identity
     * @throws IllegalArgumentException if the key does not belong to the first certificate
     */
    static ServerIdentity of(PrivateKey key, List<X509Certificate> chain, String files) {
        X509Certificate own = chain.get(0);
        if (!belongsTo(key, own.getPublicKey())) {
            throw new IllegalArgumentException("the private key does not belong to the certificate "
                    + subject(own) + " (" + files + "): give the key the certificate was issued for");
        }
        return new ServerIdentity(key, List.copyOf(chain));
    }

    /**
     * The service's own certificate, for messages: its subject and when it expires.
     *
     * @return such as {@code CN=counters.example.com, valid until 2027-01-01T00:00:00Z}
     */
    String describe() {
        X509Certificate own = chain.get(0);
        return subject(own) + ", valid until " + own.getNotAfter().toInstant();
    }

    /**
     * Whether the service's own certificate has expired.
     *
     * @param now the time to judge by
     * @return true once its validity has ended
     */
    boolean expiredAt(Instant now) {
        return chain.get(0).getNotAfter().toInstant().isBefore(now);
    }

    private static String subject(X509Certificate certificate) {
        return certificate.getSubjectX500Principal().getName();
    }

    /**
     * Signs with the key and verifies with the certificate's public key: one test for every key
     * algorithm, where comparing key material would need one per algorithm.
     */
    private static boolean belongsTo(PrivateKey key, PublicKey certified) {
        if (!key.getAlgorithm().equals(certified.getAlgorithm())) {
            return false;
        }
        try {
            String algorithm = signatureAlgorithm(key);
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(PROBE);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(certified);
            verifier.update(PROBE);
            return verifier.verify(signature);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot check that the private key ("
                    + key.getAlgorithm() + ") belongs to the certificate: " + e.getMessage(), e);
        }
    }

    private static String signatureAlgorithm(PrivateKey key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "RSASSA-PSS" -> "RSASSA-PSS";
            default -> key.getAlgorithm(); // Ed25519, Ed448 and EdDSA name their own signatures
        };
    }
}
