package io.slotted.campaign;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.BucketCount;
import io.slotted.OwnerColumn;
import io.slotted.SlottedCounters;
import io.slotted.campaign.check.Anomaly;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.workload.CampaignTypes;
import io.slotted.campaign.workload.OwnerTables;
import io.slotted.campaign.workload.ReleaseCycles;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The owner tables the campaign's rolled-up types are bound to, and what the database holds once
 * the campaign is over: each counter's value, read directly past the proxy (a released one's from
 * its column, read when it was released); then, after one last
 * roll-up, each owner column, which must equal its counter's value; and each bucketed counter's
 * buckets, which must add up to it.
 *
 * @param values each counter's final value
 * @param anomalies owner columns and buckets that disagree with the values
 */
record FinalState(Map<Counter, Long> values, List<Anomaly> anomalies) {

    /** Creates the owner tables, a row for each counter, and binds the types to them. */
    static void bindOwners(HikariDataSource pool, SlottedCounters counters, String table) {
        bind(pool, counters, table, CampaignTypes.FOLDED, CampaignTypes.FOLDED_COUNTERS, io.slotted.OwnerMode.FOLD);
        bind(pool, counters, table, CampaignTypes.COPIED, CampaignTypes.COPIED_COUNTERS, io.slotted.OwnerMode.COPY);
    }

    private static void bind(HikariDataSource pool, SlottedCounters counters, String table, int type,
            List<Counter> owned, io.slotted.OwnerMode mode) {
        OwnerColumn owner = CampaignTypes.ownerColumn(table, type);
        OwnerTables.create(pool, owner, owned);
        counters.owners().adopt(type, owner, mode);
    }

    /** Reads what the database holds, once nothing writes any more. */
    static FinalState read(HikariDataSource pool, SlottedCounters counters, String table, ReleaseCycles releases) {
        Map<Counter, Long> values = new LinkedHashMap<>();
        CampaignTypes.all().forEach(counter -> values.put(counter, counters.get(counter.type(), counter.id())));
        List<Long> bound = releases.current().stream().map(Counter::id).toList();
        counters.getAll(CampaignTypes.RELEASED, bound).forEach((id, value) -> values.put(
                new Counter(CampaignTypes.RELEASED, id), value));
        values.putAll(releases.released());
        List<Anomaly> anomalies = new ArrayList<>();
        counters.owners().rollUpNow();
        for (Counter counter : CampaignTypes.SETTABLE) {
            long column = column(pool, CampaignTypes.ownerColumn(table, counter.type()), counter.id());
            if (column != values.get(counter)) {
                anomalies.add(new Anomaly(Anomaly.Kind.OWNER_COLUMN, counter, "after a last roll-up the owner column "
                        + "holds " + column + ", but the counter reads " + values.get(counter), List.of()));
            }
        }
        Instant now = Instant.now();
        for (Counter counter : CampaignTypes.BUCKETED_COUNTERS) {
            long buckets = counters.timeSeries().series(counter.type(), counter.id(), now.minus(Duration.ofDays(1)),
                    now.plus(Duration.ofHours(1))).stream().mapToLong(BucketCount::count).sum();
            if (buckets != values.get(counter)) {
                anomalies.add(new Anomaly(Anomaly.Kind.BUCKETS, counter, "its time buckets add up to " + buckets
                        + ", but the counter reads " + values.get(counter), List.of()));
            }
        }
        return new FinalState(values, anomalies);
    }

    private static long column(HikariDataSource pool, OwnerColumn owner, long id) {
        try (Connection connection = pool.getConnection(); PreparedStatement select = connection.prepareStatement(
                "SELECT " + owner.countColumn() + " FROM " + owner.table() + " WHERE " + owner.keyColumn() + " = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the owner column " + owner + ": " + e, e);
        }
    }
}
