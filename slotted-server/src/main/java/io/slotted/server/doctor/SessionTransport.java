package io.slotted.server.doctor;

/**
 * How the doctor's own session reaches the database — encrypted or not, and over what — and what
 * that means for the connections Slotted makes with the same URL.
 *
 * <p>Plain text is a finding only where it can be read: over the network. A loopback connection or
 * a Unix socket never leaves this machine, and whoever could read it there could read the
 * database's files as well, so TLS would add nothing.
 *
 * @param encryption the protocol and cipher, such as {@code TLSv1.3, TLS_AES_256_GCM_SHA384}; empty
 *     when the session is not encrypted
 * @param route what the session travels over
 * @param address the address that showed the route (the client's as the server sees it, or the
 *     host in the URL), or empty for a socket
 */
record SessionTransport(String encryption, Route route, String address) {
    /** The check's name in the report. */
    static final String CHECK = "connection encryption";

    /** What a session travels over. */
    enum Route {
        /** A Unix socket (or another channel local to the server, such as a named pipe). */
        UNIX_SOCKET,
        /** TCP over a loopback address: it stays on one machine. */
        LOOPBACK,
        /** TCP over any other address: it may cross a network. */
        NETWORK
    }

    /**
     * What this transport means.
     *
     * @param turnTlsOn how to turn TLS on for this database, given when a finding is made
     * @return ok when encrypted, or plain on this machine; a finding when plain over the network
     */
    Check judge(String turnTlsOn) {
        if (!encryption.isEmpty()) {
            return Check.ok(CHECK, "encrypted (" + encryption + "), " + over(), "TLS encrypts the session:"
                    + " the password, ids and counts cannot be read or changed on the way");
        }
        return switch (route) {
            case UNIX_SOCKET, LOOPBACK -> Check.ok(CHECK, "not encrypted, " + over(), "a "
                    + (route == Route.LOOPBACK ? "loopback connection" : "Unix socket") + " never leaves this"
                    + " machine, so there is no network to read it on; TLS matters only to another machine");
            case NETWORK -> Check.finding(CHECK, "not encrypted, " + over(), "the session crosses the network"
                    + " in plain text: anyone on the way can read the password, ids and counts, and change"
                    + " them", "turn TLS on in the JDBC URL: " + turnTlsOn);
        };
    }

    private String over() {
        return switch (route) {
            case UNIX_SOCKET -> "over a Unix socket";
            case LOOPBACK -> "over loopback (" + address + ")";
            case NETWORK -> "over the network (" + address + ")";
        };
    }
}
