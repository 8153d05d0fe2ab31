package io.slotted.campaign.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the framers of both wire protocols find the ends of requests, however the bytes are read. */
class RequestFramerTest {

    @Test
    void mariaDb_packetReadByteByByte_endsAtItsLastByte() {
        byte[] query = mariaDbPacket(0, "COMMIT");

        assertThat(endsReadingInPieces(new MariaDbFramer(), query, 1)).containsExactly(query.length);
    }

    @Test
    void mariaDb_twoPacketsInOneRead_endOneAfterTheOther() {
        byte[] first = mariaDbPacket(0, "SELECT 1");
        byte[] both = concat(first, mariaDbPacket(0, "COMMIT"));

        assertThat(endsInOneRead(new MariaDbFramer(), both)).containsExactly(first.length, both.length);
    }

    @Test
    void mariaDb_emptyPacket_isARequestOfItsOwn() {
        byte[] empty = mariaDbPacket(3, "");

        assertThat(endsInOneRead(new MariaDbFramer(), empty)).containsExactly(4);
    }

    /** A payload of 16 MiB or more is sent as full packets of 0xFFFFFF bytes and a shorter last one. */
    @Test
    void mariaDb_fullSizedPacket_isContinuedUntilAShorterOne() {
        byte[] full = new byte[4 + 0xFFFFFF];
        full[0] = (byte) 0xFF;
        full[1] = (byte) 0xFF;
        full[2] = (byte) 0xFF;
        byte[] command = concat(full, mariaDbPacket(1, "tail"));

        assertThat(endsReadingInPieces(new MariaDbFramer(), command, 64 * 1024)).containsExactly(command.length);
    }

    @Test
    void postgres_startupThenSimpleQuery_eachEndsARequest() {
        byte[] startup = postgresStartup();
        byte[] query = postgresMessage('Q', "COMMIT\0");

        assertThat(endsInOneRead(new PostgresFramer(), concat(startup, query)))
                .containsExactly(startup.length, startup.length + query.length);
    }

    @Test
    void postgres_sslRequestRefused_thenStartup_isFollowed() {
        byte[] sslRequest = ByteBuffer.allocate(8).putInt(8).putInt(80877103).array();
        byte[] startup = postgresStartup();
        byte[] sync = postgresMessage('S', "");
        byte[] all = concat(sslRequest, startup, sync);

        assertThat(endsReadingInPieces(new PostgresFramer(), all, 3))
                .containsExactly(sslRequest.length, sslRequest.length + startup.length, all.length);
    }

    /** Parse, Bind, Describe and Execute are followed by more of the request; Sync ends it. */
    @Test
    void postgres_extendedProtocolBatch_endsAtItsSync() {
        byte[] startup = postgresStartup();
        byte[] batch = concat(postgresMessage('P', "\0/* slotted flush */ INSERT INTO t VALUES (1)\0\0\0"),
                postgresMessage('B', "\0\0\0\0\0\0\0\0"), postgresMessage('D', "P\0"),
                postgresMessage('E', "\0\0\0\0\0"), postgresMessage('S', ""));
        byte[] all = concat(startup, batch);

        assertThat(endsReadingInPieces(new PostgresFramer(), all, 7)).containsExactly(startup.length, all.length);
    }

    private static List<Integer> endsInOneRead(RequestFramer framer, byte[] bytes) {
        return endsReadingInPieces(framer, bytes, bytes.length);
    }

    /** The offsets in {@code bytes} where requests end, when read {@code piece} bytes at a time. */
    private static List<Integer> endsReadingInPieces(RequestFramer framer, byte[] bytes, int piece) {
        List<Integer> ends = new ArrayList<>();
        for (int start = 0; start < bytes.length; start += piece) {
            int to = Math.min(bytes.length, start + piece);
            for (int at = start; at < to; ) {
                int end = framer.advance(bytes, at, to);
                if (end < 0) {
                    break;
                }
                ends.add(end);
                at = end;
            }
        }
        return ends;
    }

    private static byte[] mariaDbPacket(int sequence, String payload) {
        byte[] body = payload.getBytes(StandardCharsets.UTF_8);
        return concat(new byte[] {(byte) body.length, (byte) (body.length >> 8), (byte) (body.length >> 16),
                (byte) sequence}, body);
    }

    private static byte[] postgresStartup() {
        byte[] parameters = "user\0postgres\0database\0postgres\0\0".getBytes(StandardCharsets.US_ASCII);
        return ByteBuffer.allocate(8 + parameters.length).putInt(8 + parameters.length).putInt(196608)
                .put(parameters).array();
    }

    private static byte[] postgresMessage(char type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(5 + bytes.length).put((byte) type).putInt(4 + bytes.length).put(bytes).array();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
