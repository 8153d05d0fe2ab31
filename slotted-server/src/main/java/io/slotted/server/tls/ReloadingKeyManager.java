package io.slotted.server.tls;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * The key manager of the service's one {@code SSLContext}, which presents whichever identity was
 * loaded last: swapping it is how a renewed certificate reaches new connections with no restart
 * and no new context, so Jetty and Netty need not know that certificates change.
 *
 * <p>Each identity is a one-entry key store under an alias of its own generation
 * ({@code slotted-1}, {@code slotted-2}, …), handled by the JDK's own key manager, which chooses
 * the alias for the handshake's key type. The {@code SunX509} one, which reads its keys out of the
 * store once: the {@code PKIX} one reads the key again for every handshake, and a PKCS#12 store
 * keeps it encrypted under PBKDF2, so each handshake would pay thousands of hash rounds — five
 * times the cost of the handshake itself, measured. A handshake asks for the alias first and for its chain
 * and key afterwards; a swap in between must not pair one certificate with another's key, so the
 * identity before the last stays reachable by its alias, and an alias always names one identity.
 */
final class ReloadingKeyManager extends X509ExtendedKeyManager {
    private static final char[] NO_PASSWORD = new char[0];

    private int generations = 1;
    private volatile Generation current;
    private volatile Generation previous;

    /** An identity and the JDK key manager that serves it under its own alias. */
    private record Generation(ServerIdentity identity, X509ExtendedKeyManager keys) {
    }

    ReloadingKeyManager(ServerIdentity first) {
        this.current = generation(first, 1);
        this.previous = current;
    }

    /**
     * Presents this identity from the next handshake on.
     *
     * @param next the new certificate and key
     */
    synchronized void swap(ServerIdentity next) {
        Generation replaced = current;
        current = generation(next, ++generations);
        previous = replaced;
    }

    /** The identity new handshakes present. */
    ServerIdentity identity() {
        return current.identity();
    }

    private static Generation generation(ServerIdentity identity, int number) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("slotted-" + number, identity.key(), NO_PASSWORD,
                    identity.chain().toArray(X509Certificate[]::new));
            KeyManagerFactory factory = KeyManagerFactory.getInstance("SunX509");
            factory.init(store, NO_PASSWORD);
            for (KeyManager manager : factory.getKeyManagers()) {
                if (manager instanceof X509ExtendedKeyManager keys) {
                    return new Generation(identity, keys);
                }
            }
            throw new IllegalStateException("the JDK's SunX509 key manager factory made no X.509 key manager");
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException("cannot hold the certificate's key for TLS: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return current.keys().chooseEngineServerAlias(keyType, issuers, engine);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return current.keys().chooseServerAlias(keyType, issuers, socket);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        return current.keys().getServerAliases(keyType, issuers);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        X509Certificate[] chain = current.keys().getCertificateChain(alias);
        return chain != null ? chain : previous.keys().getCertificateChain(alias);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        PrivateKey key = current.keys().getPrivateKey(alias);
        return key != null ? key : previous.keys().getPrivateKey(alias);
    }

    /** The service is never a TLS client. */
    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    /** The service is never a TLS client. */
    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
