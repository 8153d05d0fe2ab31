package io.slotted.server.config;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;

/**
 * Reads one end of a time window as the HTTP API and the command line take it: an ISO-8601
 * instant ({@code 2026-11-22T09:00:00Z}, or with an offset such as {@code +01:00}), or a date
 * ({@code 2026-11-22}), which stands for its midnight in UTC.
 */
public final class WindowBound {
    private WindowBound() {
    }

    /**
     * Reads a bound.
     *
     * @param name the bound's name for the message: {@code from} or {@code to}
     * @param text what was given
     * @return the instant
     * @throws IllegalArgumentException if the text is missing or neither an instant nor a date
     */
    public static Instant parse(String name, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(name + " is missing: give an ISO-8601 instant such as"
                    + " 2026-11-22T09:00:00Z or a date such as 2026-11-22");
        }
        String trimmed = text.strip();
        try {
            return trimmed.length() == 10 ? LocalDate.parse(trimmed).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : OffsetDateTime.parse(trimmed).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(name + " '" + Excerpt.of(trimmed) + "' is neither an"
                    + " ISO-8601 instant such as 2026-11-22T09:00:00Z nor a date such as 2026-11-22");
        }
    }
}
