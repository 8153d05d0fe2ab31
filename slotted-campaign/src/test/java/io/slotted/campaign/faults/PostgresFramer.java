package io.slotted.campaign.faults;

/**
 * PostgreSQL's frontend messages. The first messages have no type byte (a 4-byte length and a
 * 4-byte code: SSLRequest, GSSENCRequest, CancelRequest, then the startup message); every message
 * after the startup message is a type byte and a 4-byte big-endian length that counts itself.
 *
 * <p>A request ends with a message after which the client waits for the server: a simple Query, a
 * Sync ending an extended-protocol batch, a Flush, a password, a function call, the end of a COPY.
 * Parse, Bind, Describe, Execute, Close and CopyData are followed by more of the same request.
 * Only a plaintext stream can be followed: after an accepted SSLRequest the bytes mean nothing here.
 */
final class PostgresFramer implements RequestFramer {
    private static final int UNTYPED_HEADER = 8;
    private static final int TYPED_HEADER = 5;
    private static final int PROTOCOL_3 = 3;
    private static final String CONTINUES_REQUEST = "PBDECd";

    private final byte[] header = new byte[UNTYPED_HEADER];
    private boolean typed;
    private boolean startup;
    private int headerRead;
    private int bodyLeft;
    private boolean endsRequest;

    @Override
    public int advance(byte[] bytes, int from, int to) {
        int at = from;
        while (at < to) {
            if (headerRead < headerSize()) {
                header[headerRead++] = bytes[at++];
                if (headerRead == headerSize()) {
                    readHeader();
                }
            } else {
                int take = Math.min(bodyLeft, to - at);
                at += take;
                bodyLeft -= take;
            }
            if (headerRead == headerSize() && bodyLeft == 0) {
                headerRead = 0;
                typed |= startup;
                if (endsRequest) {
                    return at;
                }
            }
        }
        return -1;
    }

    private int headerSize() {
        return typed ? TYPED_HEADER : UNTYPED_HEADER;
    }

    private void readHeader() {
        if (typed) {
            bodyLeft = Math.max(0, bigEndian(1) - 4);
            endsRequest = CONTINUES_REQUEST.indexOf(header[0]) < 0;
        } else {
            bodyLeft = Math.max(0, bigEndian(0) - UNTYPED_HEADER);
            endsRequest = true;
            // The startup message names protocol 3.x; the special requests use codes 1234.56xx.
            startup = bigEndian(4) >>> 16 == PROTOCOL_3;
        }
    }

    private int bigEndian(int offset) {
        return (header[offset] & 0xFF) << 24 | (header[offset + 1] & 0xFF) << 16
                | (header[offset + 2] & 0xFF) << 8 | (header[offset + 3] & 0xFF);
    }
}
