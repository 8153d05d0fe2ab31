package io.slotted.campaign.workload;

import io.slotted.RecountReport;
import io.slotted.SlottedCounters;
import io.slotted.campaign.check.Anomaly;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Invocation;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Counters kept exact by committing each increment with the event it counts, and recounts of
 * them running alongside, as {@code slotted recount --fix} runs against an application's own
 * table. An increment of type {@link CampaignTypes#RECOUNTED} inserts its event row and adds its
 * delta on the caller's connection, in one transaction: both land or neither, whatever fails. So a
 * recount, comparing the events' sums with the counters in one snapshot, must never find a
 * difference, and never repair one: a repair would add an increment that no operation made.
 */
public final class Recounts {
    private final String events;
    private final AtomicLong eventIds = new AtomicLong();
    private final AtomicInteger recounts = new AtomicInteger();
    private final List<Anomaly> anomalies = new CopyOnWriteArrayList<>();

    /** @param table the counter table; the events table is named after it */
    public Recounts(String table) {
        this.events = table + "_events";
    }

    /** Creates the events table. */
    public void createTable(DataSource direct) {
        try (Connection connection = direct.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + events + " (event_id BIGINT PRIMARY KEY, record_id BIGINT NOT NULL,"
                    + " delta BIGINT NOT NULL)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not create " + events + ": " + e, e);
        }
    }

    /** An increment committed with its event, in the caller's transaction ({@link CallersTransaction}). */
    void add(LibraryProcess process, Counter counter, long delta, Invocation invocation) {
        CallersTransaction.commit(process, invocation, connection -> {
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + events
                    + " (event_id, record_id, delta) VALUES (?, ?, ?)")) {
                insert.setLong(1, eventIds.incrementAndGet());
                insert.setLong(2, counter.id());
                insert.setLong(3, delta);
                insert.executeUpdate();
            }
            process.counters().add(connection, counter.type(), counter.id(), delta);
        });
    }

    /**
     * Recounts the type, repairing what differs: there must be nothing. A recount that fails under
     * a fault is simply not counted.
     */
    public void recount(SlottedCounters counters) {
        RecountReport report;
        try {
            report = counters.admin().recount(CampaignTypes.RECOUNTED, "SELECT record_id, SUM(delta) FROM "
                    + events + " GROUP BY record_id", true);
        } catch (RuntimeException e) {
            return;
        }
        recounts.incrementAndGet();
        if (report.differing() > 0 || report.fixed() > 0) {
            anomalies.add(new Anomaly(Anomaly.Kind.RECOUNT, null, "a recount of counters committed with their events"
                    + " found " + report.differing() + " differing and repaired " + report.fixed() + ": "
                    + report.largest(), List.of()));
        }
    }

    /** How many recounts went through. */
    public int recounts() {
        return recounts.get();
    }

    /** Recounts that found a difference. */
    public List<Anomaly> anomalies() {
        return List.copyOf(anomalies);
    }
}
