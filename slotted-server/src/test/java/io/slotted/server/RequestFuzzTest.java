package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.db.H2TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Coverage-guided fuzzing of every request path of the HTTP service (Jazzer): methods, paths,
 * query strings, headers and bodies made by the fuzzer from pieces of the contract and from noise,
 * sent over a real socket to a real service on H2.
 *
 * <p>Two properties hold for every input: the service never answers 5xx, and a request it refuses
 * (4xx) changes no count — the table's sum and row count are the same before and after.
 *
 * <p>Without {@code JAZZER_FUZZ} set (a plain {@code mvn verify}) the test replays the checked-in
 * corpus under {@code src/test/resources/io/slotted/server/RequestFuzzTestInputs/}; CI sets
 * {@code JAZZER_FUZZ=1}, and the fuzzer then explores for a fixed time from that corpus. A finding
 * is written there as a new input, to be kept as a regression case once fixed.
 */
class RequestFuzzTest {
    private static final String WRITER = "fuzz-writer-token";
    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "HEAD",
            "OPTIONS", "PATCH", "TRACE", "CONNECT");
    private static final List<String> PATHS = List.of("/v1/counters/%s/%s/increment",
            "/v1/counters/%s/%s", "/v1/counters/%s?ids=%s", "/v1/increments", "/healthz", "/readyz",
            "/metrics", "/", "*");
    private static final List<String> TYPES = List.of("downloads", "1", "views", "0", "2147483648",
            "no_such_type", "Bad-Type", "%2e%2e", "");
    private static final List<String> CONTENT_TYPES = List.of("application/json",
            "application/json; charset=utf-8", "application/json; charset=bogus", "text/plain",
            "application/json; charset=utf-16", "");

    private static SlottedServer server;
    private static String table;

    @BeforeAll
    static void startService() throws IOException {
        table = "fuzz_" + ProcessHandle.current().pid();
        Path tokens = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
        Files.writeString(tokens, WRITER + " admin\n");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(H2TestDatabase.instance().jdbcUrl(), null, null), tokens,
                TypeNames.parse("downloads=1,views=2"), new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)));
    }

    @AfterAll
    static void stopService() {
        if (server != null) {
            server.close();
        }
        H2TestDatabase.instance().dropCounterTables(table);
    }

    @FuzzTest(maxDuration = "45s")
    void anyRequest_neverFailsTheServer_andARefusalChangesNothing(FuzzedDataProvider data)
            throws Exception {
        String request = request(data);
        Totals before = totals();

        int status;
        // The test's own client connects to the service under test, nowhere else.
        try (SilentCloseable loopback = BugDetectors.allowNetworkConnections(
                (host, port) -> port == server.port())) {
            status = send(request);
        }

        assertThat(status).as("status of %s", request).isLessThan(500);
        if (status >= 400 || status == 0) {
            assertThat(totals()).as("counts after %d for %s", status, request).isEqualTo(before);
        }
    }

    /** A request line, headers and body, each from the contract's pieces or from noise. */
    private static String request(FuzzedDataProvider data) {
        String method = data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeAsciiString(12);
        String path = data.consumeBoolean()
                ? String.format(data.pickValue(PATHS), type(data), id(data))
                : "/" + data.consumeAsciiString(40);
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\n");
        if (data.consumeBoolean()) {
            head.append("Authorization: Bearer ").append(data.consumeBoolean() ? WRITER
                    : data.consumeAsciiString(20)).append("\r\n");
        }
        if (data.consumeBoolean()) {
            head.append("Idempotency-Key: ").append(data.consumeAsciiString(140)).append("\r\n");
        }
        if (data.consumeBoolean()) {
            head.append("Content-Type: ").append(data.consumeBoolean() ? data.pickValue(CONTENT_TYPES)
                    : data.consumeAsciiString(40)).append("\r\n");
        }
        if (data.consumeBoolean()) {
            head.append(data.consumeAsciiString(30)).append(": ").append(data.consumeAsciiString(30))
                    .append("\r\n");
        }
        byte[] body = data.consumeRemainingAsString().getBytes(StandardCharsets.UTF_8);
        head.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
        return head + new String(body, StandardCharsets.UTF_8);
    }

    private static String type(FuzzedDataProvider data) {
        return data.consumeBoolean() ? data.pickValue(TYPES) : data.consumeAsciiString(10);
    }

    private static String id(FuzzedDataProvider data) {
        return data.consumeBoolean() ? Long.toString(data.consumeLong()) : data.consumeAsciiString(25);
    }

    /** Sends the request as it is and reads the status; 0 when no status line came back. */
    private static int send(String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return status(socket.getInputStream());
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within 30 s to " + request, e);
        }
    }

    private static int status(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != -1 && b != '\n'; ) {
            line.append((char) b);
        }
        String[] parts = line.toString().split(" ");
        return parts.length > 1 && parts[1].matches("\\d{3}") ? Integer.parseInt(parts[1]) : 0;
    }

    private static Totals totals() throws SQLException {
        try (Connection c = H2TestDatabase.instance().dataSource().getConnection();
                Statement s = c.createStatement();
                ResultSet row = s.executeQuery("SELECT COALESCE(SUM(count), 0), COUNT(*) FROM " + table
                        + " WHERE record_type <> " + SlottedCounters.RESERVED_RECORD_TYPE)) {
            row.next();
            return new Totals(row.getBigDecimal(1), row.getLong(2));
        }
    }

    /**
     * The counters' rows in two numbers: any applied increment moves one of them. The flushers'
     * marks are left out: a flusher makes its mark when it first writes, whatever the request.
     */
    private record Totals(BigDecimal sum, long rows) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Totals t && t.sum.compareTo(sum) == 0 && t.rows == rows;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(rows);
        }
    }
}
