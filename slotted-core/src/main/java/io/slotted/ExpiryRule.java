package io.slotted;

/**
 * When a new expiry replaces a counter's current one, as Redis's {@code EXPIRE} options decide. A
 * counter without an expiry counts as expiring never: later than any time.
 */
public enum ExpiryRule {
    /** Always (no option). */
    ALWAYS,
    /** Only if the counter has no expiry ({@code NX}). */
    IF_NONE,
    /** Only if the counter has an expiry ({@code XX}). */
    IF_SET,
    /** Only if the new time is later than the current one ({@code GT}); never for a counter without one. */
    IF_LATER,
    /** Only if the new time is earlier than the current one ({@code LT}); always for a counter without one. */
    IF_EARLIER;

    /**
     * Whether a new expiry replaces the current one.
     *
     * @param currentMs the current expiry (epoch milliseconds), or null for none
     * @param newMs the new expiry
     * @return true if it does
     */
    public boolean allows(Long currentMs, long newMs) {
        return switch (this) {
            case ALWAYS -> true;
            case IF_NONE -> currentMs == null;
            case IF_SET -> currentMs != null;
            case IF_LATER -> currentMs != null && newMs > currentMs;
            case IF_EARLIER -> currentMs == null || newMs < currentMs;
        };
    }
}
