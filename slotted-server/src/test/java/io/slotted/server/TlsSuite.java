package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TlsFiles;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import io.slotted.server.tls.TestCertificates;
import io.slotted.server.tls.TestCertificates.Issued;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * TLS on both front ends, with real clients — curl, {@code redis-cli --tls},
 * {@code redis-benchmark --tls}, Jedis and the JDK's HTTPS client — against a real service on
 * MariaDB: TLS ends at the service, so what is checked here does not change with the database
 * under it (TLS to the database is {@code DoctorSuite}'s). The certificates are made by the test ({@link TestCertificates}); clients trust
 * the test's authority alone, so a client that does not is refused as it would be by any service
 * with a certificate it cannot check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#underFrontEnds")
class TlsSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    @Parameter
    private TestDatabase db;
    private final AtomicLong ids = new AtomicLong(1_000);
    private final TestCertificates authority = TestCertificates.authority("Slotted test CA");
    private final List<String> tables = new ArrayList<>();
    private Path dir;
    private Path tokens;
    private SlottedServer server;

    @BeforeParameterizedClassInvocation
    void startService() throws IOException {
        dir = Files.createDirectories(Path.of("target", "tls", getClass().getSimpleName() + "-"
                + db.name().replaceAll("\\W", "") + "-" + ProcessHandle.current().pid()));
        tokens = Files.writeString(dir.resolve("tokens.txt"), ServiceSuite.READER + " read\n"
                + ServiceSuite.WRITER + " write\n");
        server = start("served", null);
    }

    @AfterParameterizedClassInvocation
    void stopService() {
        if (server != null) {
            server.close();
        }
        tables.forEach(db::dropCounterTables);
        tables.clear();
    }

    /** A service over TLS on a table of its own, its files under {@code dir/name}. */
    private SlottedServer start(String name, Path clientCa) throws IOException {
        Path files = Files.createDirectories(dir.resolve(name));
        Issued certificate = authority.server(name, "RSA", Duration.ofDays(1));
        TestCertificates.writeCertificate(files.resolve("cert.pem"), certificate);
        TestCertificates.writePkcs8Key(files.resolve("key.pem"), certificate);
        String table = "tls_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        tables.add(table);
        return SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(db.jdbcUrl(), null, null), tokens,
                TypeNames.parse("downloads=1,views=2"),
                new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO))
                .withTls(new TlsFiles(files.resolve("cert.pem"), files.resolve("key.pem"), clientCa)),
                HttpSettings.defaults(), RespSettings.on(0));
    }

    private String tableOf(SlottedServer service) {
        return service.store().counters().config().table();
    }

    private long newId() {
        return ids.incrementAndGet();
    }

    private Path authorityFile() {
        return authority.writeAuthority(dir.resolve("ca.pem"));
    }

    // --- HTTPS ---

    @Test
    void curlWithTheCa_countsOverHttps_andCurlWithoutItIsRefused() throws Exception {
        long id = newId();
        String url = "https://127.0.0.1:" + server.port() + "/v1/counters/downloads/" + id + "/increment";

        Run counted = run("curl", "-sS", "--cacert", authorityFile().toString(), "-X", "POST",
                "-H", "Authorization: Bearer " + ServiceSuite.WRITER, url);
        Run refused = run("curl", "-sS", "-X", "POST", "-H", "Authorization: Bearer "
                + ServiceSuite.WRITER, url);
        Run plain = run("curl", "-sS", "-X", "POST", "-H", "Authorization: Bearer "
                + ServiceSuite.WRITER, url.replace("https:", "http:"));

        assertThat(counted.status()).as(counted.output()).isZero();
        assertThat(counted.output()).contains("\"delta\":1", "\"durable\":true");
        assertThat(refused.status()).as(refused.output()).isEqualTo(60); // peer certificate not trusted
        assertThat(plain.status()).as("plain HTTP to the HTTPS port: " + plain.output()).isNotZero();
        assertThat(new CounterRows(db.dataSource(), tableOf(server)).total(1, id)).isEqualTo(1);
    }

    @Test
    void javaHttpsClient_counts_andOneThatDoesNotTrustTheCaIsRefused() throws Exception {
        long id = newId();
        HttpRequest increment = HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + server.port() + "/v1/counters/views/" + id + "/increment"))
                .header("Authorization", "Bearer " + ServiceSuite.WRITER)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"delta\": 5}")).build();

        HttpResponse<String> answer = HttpClient.newBuilder().sslContext(authority.trustingClient())
                .build().send(increment, HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThatThrownBy(() -> HttpClient.newHttpClient().send(increment,
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLException.class);
        assertThat(new CounterRows(db.dataSource(), tableOf(server)).total(2, id)).isEqualTo(5);
    }

    // --- the Redis protocol ---

    @Test
    void redisCliWithTls_counts_andWithoutTlsGetsNoAnswer() throws Exception {
        long id = newId();
        List<String> cli = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p",
                Integer.toString(server.respPort()), "--user", "default", "--pass",
                ServiceSuite.WRITER, "--no-auth-warning"));

        Run plain = run(concat(cli, "INCR", "downloads:" + id));
        List<String> tls = concat(cli, "--tls", "--cacert", authorityFile().toString());
        Run counted = run(concat(tls, "INCRBY", "downloads:" + id, "41"));
        Run read = run(concat(tls, "GET", "downloads:" + id));

        assertThat(counted.output().strip()).as(counted.output()).isEqualTo("41");
        assertThat(read.output().strip()).isEqualTo("41");
        assertThat(plain.output()).doesNotContain("41").doesNotContain("(integer)");
        assertThat(new CounterRows(db.dataSource(), tableOf(server)).total(1, id)).isEqualTo(41);
    }

    @Test
    void redisBenchmarkWithTls_countsEveryRequest() throws Exception {
        long id = newId();
        Run benchmark = run("redis-benchmark", "-h", "127.0.0.1", "-p",
                Integer.toString(server.respPort()), "--user", "default", "-a", ServiceSuite.WRITER,
                "--tls", "--cacert", authorityFile().toString(), "-c", "16", "-n", "4000",
                "--csv", "INCR", "downloads:" + id);

        assertThat(benchmark.status()).as(benchmark.output()).isZero();
        assertThat(benchmark.output()).contains("\"INCR").doesNotContainIgnoringCase("error");
        assertThat(new CounterRows(db.dataSource(), tableOf(server)).total(1, id)).isEqualTo(4_000);
    }

    @Test
    void jedisOverTls_counts_andJedisWithoutTheCaIsRefused() throws Exception {
        long id = newId();
        try (Jedis jedis = jedis(server, authority.trustingClient())) {
            assertThat(jedis.incrBy("views:" + id, 7)).isEqualTo(7);
            assertThat(jedis.get("views:" + id)).isEqualTo("7");
        }
        SSLContext trustsNothingHere = SSLContext.getDefault();
        assertThatThrownBy(() -> {
            try (Jedis jedis = jedis(server, trustsNothingHere)) {
                jedis.incr("views:" + id);
            }
        }).isInstanceOf(JedisConnectionException.class);
        assertThat(new CounterRows(db.dataSource(), tableOf(server)).total(2, id)).isEqualTo(7);
    }

    private static Jedis jedis(SlottedServer service, SSLContext tls) {
        return new Jedis(new HostAndPort("127.0.0.1", service.respPort()), config(tls).build());
    }

    private static DefaultJedisClientConfig.Builder config(SSLContext tls) {
        return DefaultJedisClientConfig.builder().ssl(true).sslSocketFactory(tls.getSocketFactory())
                .password(ServiceSuite.WRITER).timeoutMillis(30_000);
    }

    // --- mutual TLS ---

    @Test
    void mutualTls_servesClientsWithACertificate_andRefusesThoseWithout() throws Exception {
        SlottedServer mutual = start("mutual", authorityFile());
        try {
            long id = newId();
            Issued client = authority.client("counting-client");
            Path clientCert = TestCertificates.writeCertificate(dir.resolve("client.pem"), client);
            Path clientKey = TestCertificates.writePkcs8Key(dir.resolve("client.key"), client);
            String url = "https://127.0.0.1:" + mutual.port() + "/v1/counters/downloads/" + id
                    + "/increment";
            List<String> curl = List.of("curl", "-sS", "--cacert", authorityFile().toString(),
                    "-X", "POST", "-H", "Authorization: Bearer " + ServiceSuite.WRITER);

            Run withCertificate = run(concat(curl, "--cert", clientCert.toString(), "--key",
                    clientKey.toString(), url));
            Run without = run(concat(curl, url));
            try (Jedis jedis = jedis(mutual, authority.clientContext(client))) {
                jedis.incr("downloads:" + id);
            }
            Run cli = run("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(mutual.respPort()),
                    "--user", "default", "--pass", ServiceSuite.WRITER, "--no-auth-warning", "--tls",
                    "--cacert", authorityFile().toString(), "--cert", clientCert.toString(),
                    "--key", clientKey.toString(), "INCR", "downloads:" + id);

            assertThat(withCertificate.status()).as(withCertificate.output()).isZero();
            assertThat(without.status()).as("curl without a client certificate").isNotZero();
            assertThat(cli.output().strip()).isEqualTo("3");
            assertThatThrownBy(() -> {
                try (Jedis jedis = jedis(mutual, authority.trustingClient())) {
                    jedis.incr("downloads:" + id);
                }
            }).isInstanceOf(JedisConnectionException.class);
            assertThat(new CounterRows(db.dataSource(), tableOf(mutual)).total(1, id)).isEqualTo(3);
        } finally {
            mutual.close();
        }
    }

    // --- renewal ---

    /**
     * The certificate is replaced on disk while 16 clients count over TLS, eight over HTTPS and
     * eight over the Redis protocol, each opening a new connection every few increments: new
     * connections are served the new certificate, connections already open go on counting, and
     * the table holds exactly what the clients were acknowledged.
     */
    @Test
    void certificateReplacedWhileSixteenClientsCount_newConnectionsGetIt_andNothingIsLost() throws Exception {
        SlottedServer renewing = start("renewing", null);
        ExecutorService clients = Executors.newFixedThreadPool(16);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong acknowledged = new AtomicLong();
        try {
            List<CompletableFuture<Void>> running = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                long id = newId();
                running.add(CompletableFuture.runAsync(() -> countOverResp(renewing, id, stop,
                        acknowledged), clients));
                long other = newId();
                running.add(CompletableFuture.runAsync(() -> countOverHttps(renewing, other, stop,
                        acknowledged), clients));
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.get() > 500);
            assertThat(servedName(renewing.port())).isEqualTo("CN=renewing");

            Issued renewed = authority.server("renewed", "EC", Duration.ofDays(1));
            Path files = dir.resolve("renewing");
            TestCertificates.renew(files.resolve("cert.pem"), files.resolve("key.pem"), renewed);
            Awaitility.await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> servedName(renewing.port()).equals("CN=renewed"));
            assertThat(servedName(renewing.respPort())).isEqualTo("CN=renewed");
            long atRenewal = acknowledged.get();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.get() > atRenewal + 500);

            stop.set(true);
            CompletableFuture.allOf(running.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            renewing.close();
            assertThat(new CounterRows(db.dataSource(), tableOf(renewing)).typeTotal(1)
                    + new CounterRows(db.dataSource(), tableOf(renewing)).typeTotal(2))
                    .isEqualTo(acknowledged.get());
        } finally {
            stop.set(true);
            clients.shutdownNow();
            renewing.close();
        }
    }

    private void countOverResp(SlottedServer service, long id, AtomicBoolean stop, AtomicLong acknowledged) {
        while (!stop.get()) {
            try (Jedis jedis = jedis(service, authority.trustingClient())) {
                for (int i = 0; i < 20 && !stop.get(); i++) {
                    jedis.incr("downloads:" + id);
                    acknowledged.incrementAndGet();
                }
            }
        }
    }

    private void countOverHttps(SlottedServer service, long id, AtomicBoolean stop, AtomicLong acknowledged) {
        HttpRequest increment = HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                + service.port() + "/v1/counters/views/" + id + "/increment"))
                .header("Authorization", "Bearer " + ServiceSuite.WRITER)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        while (!stop.get()) {
            // A new client, and so new connections, every 20 increments.
            HttpClient client = HttpClient.newBuilder().sslContext(authority.trustingClient()).build();
            for (int i = 0; i < 20 && !stop.get(); i++) {
                try {
                    HttpResponse<String> answer = client.send(increment, HttpResponse.BodyHandlers.ofString());
                    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                acknowledged.incrementAndGet();
            }
        }
    }

    /** The subject of the certificate a new TLS connection to the port is served. */
    private String servedName(int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) authority.trustingClient().getSocketFactory()
                .createSocket("127.0.0.1", port)) {
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0])
                    .getSubjectX500Principal().getName();
        }
    }

    @Test
    void aBadRenewal_keepsTheCertificateServed_andReadyzWarns() throws Exception {
        SlottedServer renewing = start("badly-renewed", null);
        try {
            HttpClient client = HttpClient.newBuilder().sslContext(authority.trustingClient()).build();
            HttpRequest ready = HttpRequest.newBuilder(URI.create("https://127.0.0.1:"
                    + renewing.port() + "/readyz")).build();
            Path files = dir.resolve("badly-renewed");

            TestCertificates.writePkcs8Key(files.resolve("key.pem"),
                    authority.server("other", "RSA", Duration.ofDays(1)));
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> client.send(ready,
                    HttpResponse.BodyHandlers.ofString()).body().contains("warnings"));

            HttpResponse<String> warned = client.send(ready, HttpResponse.BodyHandlers.ofString());
            assertThat(warned.statusCode()).isEqualTo(200);
            assertThat(warned.body()).contains("\"status\":\"ready\"", "tls: the changed files cannot"
                    + " be served", "the private key does not belong to the certificate",
                    "still serving CN=badly-renewed");
            assertThat(servedName(renewing.port())).isEqualTo("CN=badly-renewed");
        } finally {
            renewing.close();
        }
    }

    // --- wrong tokens ---

    /**
     * A loop of wrong tokens from 127.0.0.1 is held back after its burst, on both protocols (they
     * share the count), while a client with the right token from another address, 127.0.0.2, is
     * served. The loop's own right token is not checked either while the address is held back.
     */
    @Test
    void wrongTokensFromOneAddress_areHeldBack_whileAnotherAddressIsServed() throws Exception {
        SlottedServer guarded = start("guarded", null);
        try {
            long id = newId();
            HttpClient client = HttpClient.newBuilder().sslContext(authority.trustingClient()).build();
            String url = "https://127.0.0.1:" + guarded.port() + "/v1/counters/downloads/" + id
                    + "/increment";
            List<Integer> statuses = new ArrayList<>();
            HttpResponse<String> last = null;
            for (int i = 0; i < 25; i++) {
                last = client.send(HttpRequest.newBuilder(URI.create(url))
                        .header("Authorization", "Bearer guess-" + i)
                        .POST(HttpRequest.BodyPublishers.noBody()).build(),
                        HttpResponse.BodyHandlers.ofString());
                statuses.add(last.statusCode());
            }
            HttpResponse<String> rightTokenHeldBack = client.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Authorization", "Bearer " + ServiceSuite.WRITER)
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            Run otherAddress = run("curl", "-sS", "--interface", "127.0.0.2", "--cacert",
                    authorityFile().toString(), "-X", "POST", "-H", "Authorization: Bearer "
                            + ServiceSuite.WRITER, "-w", "\n%{http_code}", url);
            String respHeldBack = respAuth(guarded, "127.0.0.1", "guess-resp");
            String respOtherAddress = respAuth(guarded, "127.0.0.2", ServiceSuite.WRITER);

            assertThat(statuses.subList(0, 20)).containsOnly(401);
            assertThat(statuses.subList(20, 25)).containsOnly(429);
            assertThat(last.headers().firstValue("Retry-After")).hasValueSatisfying(
                    seconds -> assertThat(Long.parseLong(seconds)).isBetween(1L, 5L));
            assertThat(last.body()).contains("auth_held_back", "too many wrong tokens came from 127.0.0.1");
            assertThat(rightTokenHeldBack.statusCode()).isEqualTo(429);
            assertThat(otherAddress.output()).endsWith("200");
            assertThat(respHeldBack).startsWith("ERR too many wrong tokens came from 127.0.0.1");
            assertThat(respOtherAddress).isEqualTo("OK");
            assertThat(new CounterRows(db.dataSource(), tableOf(guarded)).total(1, id)).isEqualTo(1);
        } finally {
            guarded.close();
        }
    }

    /** {@code AUTH token} over TLS from a chosen local address, answered OK or with the error. */
    private String respAuth(SlottedServer service, String from, String token) {
        JedisSocketFactory boundTo = () -> {
            try {
                Socket socket = new Socket();
                socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
                socket.connect(new InetSocketAddress("127.0.0.1", service.respPort()), 10_000);
                SSLSocket tls = (SSLSocket) authority.trustingClient().getSocketFactory()
                        .createSocket(socket, "127.0.0.1", service.respPort(), true);
                tls.startHandshake();
                return tls;
            } catch (IOException e) {
                throw new JedisConnectionException(e);
            }
        };
        JedisClientConfig noPassword = DefaultJedisClientConfig.builder().timeoutMillis(30_000).build();
        try (Jedis jedis = new Jedis(boundTo, noPassword)) {
            return jedis.auth(token);
        } catch (JedisDataException e) {
            return e.getMessage();
        }
    }

    // --- running real clients ---

    private record Run(int status, String output) {
    }

    private static List<String> concat(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all;
    }

    private static Run run(String... command) throws Exception {
        return run(List.of(command));
    }

    /** Runs a client; a missing program fails the test. */
    private static Run run(List<String> command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(command.get(0) + " is not installed: .ci/run installs it"
                    + " (apt-get install curl redis-tools)", e);
        }
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        return new Run(process.exitValue(), output);
    }
}
