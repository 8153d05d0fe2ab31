package io.slotted.server.tls;

import io.slotted.server.config.TlsFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service's TLS: its certificate and key from PEM files, and the client CA for mutual TLS, in
 * one {@link SSLContext} that every front end serves from, with TLS 1.3 and 1.2 only
 * ({@link #PROTOCOLS}).
 *
 * <p><b>Renewal without a restart.</b> Certificate tools (ACME clients, cert-manager) renew files in
 * place. The files are read again every {@link #CHECK_EVERY} and compared byte for byte with those
 * last tried — polling rather than file-system events, because a Kubernetes secret volume changes
 * by swapping a symbolic link, which watch services miss. A changed set that reads as a
 * certificate chain, its key and (with mutual TLS) a CA, whose certificate has not expired, is
 * served from the next handshake on: the context's key and trust managers
 * ({@link ReloadingKeyManager}, {@link ClientAuthorities}) swap what they hold, so connections
 * already open keep the session they made. A changed set that does not — a key written before its
 * certificate, a truncated file, a key of another certificate — is reported once in the log and
 * by {@link #problem()}, which {@code /readyz} shows, and the identity already served stays; the
 * set is tried again as soon as a file changes once more.
 */
public final class ServerTls implements AutoCloseable {
    /** The protocol versions served: TLS 1.3 and 1.2, none older. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** How often the files are compared with those last tried. */
    public static final Duration CHECK_EVERY = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(ServerTls.class);

    private final TlsFiles files;
    private final Clock clock;
    private final ReloadingKeyManager keys;
    private final ClientAuthorities clients;
    private final SSLContext context;
    private final ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(
            runnable -> {
                Thread thread = new Thread(runnable, "slotted-tls-files");
                thread.setDaemon(true);
                return thread;
            });
    private Contents tried;
    private volatile String problem;

    /** The bytes of the files, as last read. */
    private record Contents(byte[] certificate, byte[] key, byte[] clientCa) {
        boolean sameAs(Contents other) {
            return other != null && Arrays.equals(certificate, other.certificate)
                    && Arrays.equals(key, other.key) && Arrays.equals(clientCa, other.clientCa);
        }
    }

    /** What a set of files holds, once it has been checked. */
    private record Loaded(ServerIdentity identity, List<X509Certificate> clientCas) {
    }

    private ServerTls(TlsFiles files, Clock clock, Contents contents, Loaded first) {
        this.files = files;
        this.clock = clock;
        this.tried = contents;
        this.keys = new ReloadingKeyManager(first.identity());
        this.clients = first.clientCas() == null ? null : new ClientAuthorities(first.clientCas());
        this.context = context(keys, clients);
    }

    /**
     * Reads the files, and from then on reads them again every {@code checkEvery}.
     *
     * @param files the certificate, key and optional client CA
     * @param checkEvery how often to look for changed files
     * @return the service's TLS
     * @throws IllegalArgumentException if a file cannot be read, or does not hold what it should
     */
    public static ServerTls start(TlsFiles files, Duration checkEvery) {
        Clock clock = Clock.systemUTC();
        Contents contents = read(files);
        Loaded first = load(contents, files);
        ServerTls tls = new ServerTls(files, clock, contents, first);
        if (first.identity().expiredAt(clock.instant())) {
            tls.problem = "the certificate " + first.identity().describe() + " in "
                    + files.certificate() + " has expired: clients will refuse it until it is renewed";
            log.warn("TLS: {}", tls.problem);
        }
        long every = checkEvery.toMillis();
        tls.watcher.scheduleWithFixedDelay(tls::checkFiles, every, every, TimeUnit.MILLISECONDS);
        return tls;
    }

    /**
     * The context every front end makes its TLS connections with.
     *
     * @return the one context, whose certificate follows the files
     */
    public SSLContext sslContext() {
        return context;
    }

    /**
     * Whether clients must present a certificate signed by the client CA.
     *
     * @return true with mutual TLS
     */
    public boolean requiresClientCertificates() {
        return clients != null;
    }

    /**
     * The certificate new connections are served, for the start-up log.
     *
     * @return its subject and expiry, and whether clients need certificates
     */
    public String describe() {
        return keys.identity().describe() + (clients == null ? ""
                : "; clients need a certificate signed by a CA of " + files.clientCa());
    }

    /**
     * Why the files as they are now are not what is served, such as a renewed certificate whose
     * key does not match, or an expired certificate.
     *
     * @return the problem, or empty when the files are served as they are
     */
    public Optional<String> problem() {
        return Optional.ofNullable(problem);
    }

    /** Reads the files and serves them if they changed and hold a usable certificate and key. */
    void checkFiles() {
        try {
            Contents now = read(files);
            if (now.sameAs(tried)) {
                return;
            }
            tried = now;
            Loaded next = load(now, files);
            if (next.identity().expiredAt(clock.instant())) {
                throw new IllegalArgumentException("the new certificate " + next.identity().describe()
                        + " has expired");
            }
            keys.swap(next.identity());
            if (clients != null) {
                clients.swap(next.clientCas());
            }
            problem = null;
            log.info("TLS: new connections get the new certificate {}", keys.identity().describe());
        } catch (IllegalArgumentException e) {
            refuse(e.getMessage());
        } catch (RuntimeException e) {
            refuse(e.toString()); // the watcher must outlive any surprise, or renewals stop
        }
    }

    private void refuse(String why) {
        String now = "the changed files cannot be served (" + why + "); still serving "
                + keys.identity().describe() + " until they can";
        if (!now.equals(problem)) {
            log.warn("TLS: {}", now);
        }
        problem = now;
    }

    private static Contents read(TlsFiles files) {
        return new Contents(bytes(files.certificate()), bytes(files.privateKey()),
                files.clientCaFile().map(ServerTls::bytes).orElse(null));
    }

    private static byte[] bytes(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + file + ": " + e, e);
        }
    }

    private static Loaded load(Contents contents, TlsFiles files) {
        String certificateFile = files.certificate().toString();
        ServerIdentity identity = ServerIdentity.of(
                PemFiles.privateKey(contents.key(), files.privateKey().toString()),
                PemFiles.certificates(contents.certificate(), certificateFile),
                certificateFile + ", " + files.privateKey());
        List<X509Certificate> clientCas = contents.clientCa() == null ? null
                : PemFiles.certificates(contents.clientCa(), files.clientCa().toString());
        return new Loaded(identity, clientCas);
    }

    private static SSLContext context(ReloadingKeyManager keys, ClientAuthorities clients) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(new KeyManager[] {keys},
                    clients == null ? null : new TrustManager[] {clients}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK offers no TLS context: " + e.getMessage(), e);
        }
    }

    /** Stops looking at the files. */
    @Override
    public void close() {
        watcher.shutdownNow();
    }
}
