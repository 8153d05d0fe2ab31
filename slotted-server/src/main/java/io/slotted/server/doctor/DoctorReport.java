package io.slotted.server.doctor;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.slotted.server.doctor.locks.DeadlockReport;
import io.slotted.server.doctor.locks.HotRow;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What the doctor found. Its JSON form ({@link #toJson}) is the documented shape of
 * {@code slotted doctor --json} and {@code GET /v1/doctor}.
 *
 * @param database the server's product and version
 * @param windowMillis how long lock waits were sampled
 * @param samples how many samples were taken
 * @param hotRows the rows sessions queued for, the most waited for first
 * @param deadlocks deadlocks detected in the window, or -1 when they could not be read
 * @param latestDeadlock the latest deadlock the server describes (InnoDB only), or null
 * @param lockWaitTimeouts statements that gave up waiting for a lock in the window, or -1 where
 *     they are not counted or could not be read
 * @param rowLockWaitMillis time spent waiting for row locks in the window, all rows together, or
 *     -1 where it is not counted or could not be read
 * @param checks the settings and Slotted-table checks
 * @param missingGrants privileges the doctor lacked, each with the statement that grants it and
 *     what could not be seen without it
 * @param notes anything else a reader needs to weigh the report
 */
public record DoctorReport(String database, long windowMillis, int samples, List<HotRow> hotRows,
        long deadlocks, DeadlockReport latestDeadlock, long lockWaitTimeouts, long rowLockWaitMillis,
        List<Check> checks, List<String> missingGrants, List<String> notes) {
    private static final JsonMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT).build();

    /**
     * Whether there is something to fix: a hot row, a deadlock or a lock-wait timeout in the
     * window, a check that failed, or a privilege the doctor needed.
     *
     * @return true when the command line should exit with 3
     */
    @JsonIgnore
    public boolean hasFindings() {
        return !hotRows.isEmpty() || deadlocks > 0 || lockWaitTimeouts > 0 || !missingGrants.isEmpty()
                || checks.stream().anyMatch(check -> !check.ok());
    }

    /**
     * The report as JSON, with snake_case names.
     *
     * @return the JSON text
     */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
