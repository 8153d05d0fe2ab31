package io.slotted.campaign.faults;

/**
 * MariaDB's client packets: a 3-byte little-endian length, a sequence number, then the payload.
 * Each packet is one command the server answers, except that a payload of 16 MiB or more goes as
 * packets of exactly {@code 0xFFFFFF} bytes followed by a shorter one, which ends the command.
 */
final class MariaDbFramer implements RequestFramer {
    private static final int HEADER = 4;
    private static final int FULL_PACKET = 0xFFFFFF;

    private final byte[] header = new byte[HEADER];
    private int headerRead;
    private int length;
    private int payloadLeft;

    @Override
    public int advance(byte[] bytes, int from, int to) {
        int at = from;
        while (at < to) {
            if (headerRead < HEADER) {
                header[headerRead++] = bytes[at++];
                if (headerRead == HEADER) {
                    length = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
                    payloadLeft = length;
                }
            } else {
                int take = Math.min(payloadLeft, to - at);
                at += take;
                payloadLeft -= take;
            }
            if (headerRead == HEADER && payloadLeft == 0) {
                headerRead = 0;
                if (length < FULL_PACKET) {
                    return at;
                }
            }
        }
        return -1;
    }
}
