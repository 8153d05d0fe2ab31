package io.slotted.server.tls;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The trust manager of mutual TLS: a client certificate must be signed by one of the authorities
 * of the client-CA file, as the JDK's own PKIX trust manager checks it. Like the key manager, it
 * serves whichever authorities were loaded last, so a changed CA file needs no restart.
 */
final class ClientAuthorities extends X509ExtendedTrustManager {
    private volatile X509ExtendedTrustManager current;

    ClientAuthorities(List<X509Certificate> authorities) {
        this.current = trusting(authorities);
    }

    /**
     * Checks client certificates against these authorities from the next handshake on.
     *
     * @param authorities the CA certificates
     */
    void swap(List<X509Certificate> authorities) {
        current = trusting(authorities);
    }

    private static X509ExtendedTrustManager trusting(List<X509Certificate> authorities) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            for (int i = 0; i < authorities.size(); i++) {
                store.setCertificateEntry("client-ca-" + i, authorities.get(i));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(store);
            for (TrustManager manager : factory.getTrustManagers()) {
                if (manager instanceof X509ExtendedTrustManager trust) {
                    return trust;
                }
            }
            throw new IllegalStateException("the JDK's PKIX trust manager factory made no X.509 trust manager");
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalArgumentException("cannot trust the client CA certificates: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        current.checkClientTrusted(chain, authType, engine);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        current.checkClientTrusted(chain, authType, socket);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        current.checkClientTrusted(chain, authType);
    }

    /** The service is never a TLS client, so it never judges a server. */
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("the service does not connect to TLS servers");
    }

    /** The service is never a TLS client, so it never judges a server. */
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("the service does not connect to TLS servers");
    }

    /** The service is never a TLS client, so it never judges a server. */
    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("the service does not connect to TLS servers");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return current.getAcceptedIssuers();
    }
}
