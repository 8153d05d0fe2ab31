package io.slotted.server.http.error;

/**
 * Every error's body: {@code {"error": {"code": "bad_delta", "message": "…"}}}.
 *
 * @param error the code and message
 */
public record ErrorResponse(Detail error) {
    /**
     * What went wrong.
     *
     * @param code a short lowercase code clients can switch on
     * @param message what to fix, for a person
     */
    public record Detail(String code, String message) {
    }

    /**
     * An error body.
     *
     * @param code a short lowercase code clients can switch on
     * @param message what to fix, for a person
     * @return the body
     */
    public static ErrorResponse of(String code, String message) {
        return new ErrorResponse(new Detail(code, message));
    }
}
