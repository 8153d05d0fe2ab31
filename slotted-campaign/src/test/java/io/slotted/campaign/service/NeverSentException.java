package io.slotted.campaign.service;

/**
 * A request that never left the client: no connection to the service could be opened (it was
 * down, or starting again). Nothing of it reached the service, so nothing of it was applied.
 */
final class NeverSentException extends Exception {
    NeverSentException(String message, Throwable cause) {
        super(message, cause);
    }
}
