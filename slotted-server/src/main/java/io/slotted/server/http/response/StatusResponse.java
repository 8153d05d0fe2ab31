package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The answer of a probe: {@code {"status": "up"}} from {@code /healthz},
 * {@code {"status": "ready"}} from {@code /readyz}, with {@code "warnings"} when something needs
 * an operator without stopping the service (renewed TLS files that could not be served).
 *
 * @param status what the probe found
 * @param warnings what needs looking at, if anything; left out of the JSON when empty
 */
public record StatusResponse(String status,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {
    /** The process is up. */
    public static final StatusResponse UP = new StatusResponse("up", List.of());
    /** The counter table can be read and written. */
    public static final StatusResponse READY = new StatusResponse("ready", List.of());

    /**
     * Ready, with warnings.
     *
     * @param warnings what needs looking at, or an empty list
     * @return the answer
     */
    public static StatusResponse ready(List<String> warnings) {
        return warnings.isEmpty() ? READY : new StatusResponse("ready", List.copyOf(warnings));
    }
}
