package io.slotted.server.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the service's TLS certificate and key are, as PEM files, and optionally the certificate
 * authority whose client certificates it asks for (mutual TLS). The files are named, not read:
 * reading them, and reading them again when they change, is part of running the service.
 *
 * @param certificate the PEM certificate chain, the service's own certificate first
 * @param privateKey the PEM private key of that certificate
 * @param clientCa the PEM certificates of the authorities that sign client certificates, or null
 *     when clients need none
 */
public record TlsFiles(Path certificate, Path privateKey, Path clientCa) {
    /**
     * Checks that both halves of the pair are named.
     *
     * @throws NullPointerException if the certificate or the key is missing
     */
    public TlsFiles {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(privateKey, "privateKey");
    }

    /**
     * The authority that signs client certificates, when clients must present one.
     *
     * @return the CA file, or empty when clients need no certificate
     */
    public Optional<Path> clientCaFile() {
        return Optional.ofNullable(clientCa);
    }
}
