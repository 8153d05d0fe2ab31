package io.slotted.server.resp.command;

/**
 * What one connection has told the server about itself: its token once {@code AUTH} accepted it,
 * the name {@code CLIENT SETNAME} gave it, and the commands queued since {@code MULTI}. Read and changed only on the connection's event
 * loop, in command order.
 */
public final class ClientState {
    private final long id;
    private String token;
    private String name;
    private boolean quitting;
    private RespTransaction transaction;

    /**
     * The state of a new connection.
     *
     * @param id the connection's number, which {@code CLIENT ID} answers
     */
    public ClientState(long id) {
        this.id = id;
    }

    long id() {
        return id;
    }

    /** The token accepted by {@code AUTH} or {@code HELLO … AUTH}, or null before that. */
    String token() {
        return token;
    }

    void authenticate(String token) {
        this.token = token;
    }

    String name() {
        return name;
    }

    void name(String name) {
        this.name = name;
    }

    /** The transaction {@code MULTI} began, or null outside one. */
    RespTransaction transaction() {
        return transaction;
    }

    /** Begins a transaction, or ends it when given null. */
    void transaction(RespTransaction transaction) {
        this.transaction = transaction;
    }

    /** Whether {@code QUIT} was sent: the connection closes once its answers are out. */
    public boolean quitting() {
        return quitting;
    }

    void quit() {
        quitting = true;
    }
}
