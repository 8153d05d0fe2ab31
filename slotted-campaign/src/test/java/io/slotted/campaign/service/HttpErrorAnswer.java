package io.slotted.campaign.service;

/**
 * An HTTP answer other than 2xx: its status and the contract's error code ({@code limit_exceeded},
 * {@code outcome_unknown}, ...), or null when the body carries none.
 */
final class HttpErrorAnswer extends Exception {
    private final int status;
    private final String code;

    HttpErrorAnswer(int status, String code, String message) {
        super("HTTP " + status + " " + code + ": " + message);
        this.status = status;
        this.code = code;
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }
}
