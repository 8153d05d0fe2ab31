package io.slotted.server.http.response;

/**
 * The answer of a probe: {@code {"status": "up"}} from {@code /healthz},
 * {@code {"status": "ready"}} from {@code /readyz}.
 *
 * @param status what the probe found
 */
public record StatusResponse(String status) {
    /** The process is up. */
    public static final StatusResponse UP = new StatusResponse("up");
    /** The counter table can be read and written. */
    public static final StatusResponse READY = new StatusResponse("ready");
}
