package io.slotted.server.resp.command;

import java.net.InetAddress;
import java.util.concurrent.CompletableFuture;

/**
 * What one connection has told the server about itself: its token once {@code AUTH} accepted it,
 * the name {@code CLIENT SETNAME} gave it, and the commands queued since {@code MULTI}. Read and changed only on the connection's event
 * loop, in command order.
 */
public final class ClientState {
    private final long id;
    private final InetAddress address;
    private String token;
    private String name;
    private boolean quitting;
    private RespTransaction transaction;
    /** The answer of the last command that wrote, which an expiry command waits for. */
    private CompletableFuture<?> lastWrite = CompletableFuture.completedFuture(null);

    /**
     * The state of a new connection.
     *
     * @param id the connection's number, which {@code CLIENT ID} answers
     * @param address the client's address, which its wrong tokens count against
     */
    public ClientState(long id, InetAddress address) {
        this.id = id;
        this.address = address;
    }

    InetAddress address() {
        return address;
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

    /**
     * Completes once the last command this connection sent that writes has been answered, however:
     * an {@code EXPIRE} pipelined after an {@code INCR} of the same key starts after it, as Redis
     * runs a connection's commands in order.
     */
    CompletableFuture<?> lastWrite() {
        return lastWrite;
    }

    void wrote(CompletableFuture<?> answer) {
        lastWrite = answer;
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
