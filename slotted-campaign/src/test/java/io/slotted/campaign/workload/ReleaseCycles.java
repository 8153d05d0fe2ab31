package io.slotted.campaign.workload;

import io.slotted.Increment;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.faults.ServerFaults;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.History;
import io.slotted.campaign.history.Invocation;
import io.slotted.campaign.history.Kind;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A copy-mode type released again and again while the campaign runs: each cycle binds it to an
 * owner table of its own, gives each of its {@value #PER_CYCLE} counters an increment (so that
 * the release takes several chunks), lets the clients write and read them, then releases the type
 * through a process of its own. A release that failed leaves the type bound and every counter
 * exact, so its counters are read right after: a count that only the column holds shows as lost.
 * Once a release went through, each counter's final value is its column's.
 *
 * <p>The releasing process reaches the database through a proxy of its own and rolls nothing up,
 * so that a fault armed there hits the release's commits: half the releases have one aimed into them,
 * one of the next few commits reset or cut. The database's own faults reach it as every other
 * process. The clients write and read the type's counters only while no release runs
 * ({@link #operation()}), and between a release and the next cycle's binding they write other
 * counters.
 */
public final class ReleaseCycles {
    private static final Logger LOG = LoggerFactory.getLogger(ReleaseCycles.class);
    /** Counters per cycle: more than one of a release's chunks of 500, so that it can fail between them. */
    public static final int PER_CYCLE = 600;
    /** Counter ids of cycle {@code n} begin at {@code n * ID_STEP}. */
    private static final long ID_STEP = 10_000;
    private static final int ATTEMPTS = 30;

    private final History history;
    private final DataSource direct;
    private final SlottedCounters directCounters;
    private final String table;
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
    private final Map<Counter, Long> released = new ConcurrentHashMap<>();
    private volatile int cycle;
    private volatile List<Counter> current = List.of();
    private volatile int releases;

    /**
     * @param history where the seeding increments, the releases and the reads after them go
     * @param direct the database past the proxy, for owner tables and their columns
     * @param directCounters counters on {@code direct}, for binding each cycle's table
     * @param table the counter table
     */
    public ReleaseCycles(History history, DataSource direct, SlottedCounters directCounters, String table) {
        this.history = history;
        this.direct = direct;
        this.directCounters = directCounters;
        this.table = table;
    }

    /** The owner column of cycle {@code n}. */
    private OwnerColumn owner(int n) {
        return OwnerTables.column(table + "_released_" + n);
    }

    /** Binds the type for the first cycle. */
    public void begin() {
        next();
    }

    /** Held by a client around each operation on the type's counters, so that none runs during a release. */
    public SetGuard.Held operation() {
        Lock lock = gate.readLock();
        lock.lock();
        return lock::unlock;
    }

    /**
     * A counter of the cycle under way, or null between a release and the next cycle; call while
     * holding {@link #operation()}.
     */
    Counter pick(Random random) {
        List<Counter> counters = current;
        return counters.isEmpty() ? null : counters.get(random.nextInt(counters.size()));
    }

    /** The counters of the cycle under way, still bound; none between a release and the next cycle. */
    public List<Counter> current() {
        return current;
    }

    /** The final value of every counter whose cycle was released: its column's. */
    public Map<Counter, Long> released() {
        return Map.copyOf(released);
    }

    /** How many releases went through. */
    public int releases() {
        return releases;
    }

    /**
     * Releases the type through {@code process}, which reaches the database through {@code proxy}
     * alone, trying again after each failure, then binds it for the next cycle.
     */
    public void release(LibraryProcess process, FaultProxy proxy, Random random) {
        if (releaseWhileNoClientUsesIt(process, proxy, random)) {
            next();
        }
    }

    /** @return whether the release went through: its counters are no longer picked */
    private boolean releaseWhileNoClientUsesIt(LibraryProcess process, FaultProxy proxy, Random random) {
        Lock lock = gate.writeLock();
        lock.lock();
        try {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                if (random.nextBoolean()) {
                    aimFault(proxy, random);
                }
                Invocation invocation = history.invoke(process.name(), Kind.RELEASE, Map.of(), null);
                try {
                    process.counters().owners().release(CampaignTypes.RELEASED);
                    invocation.ok();
                } catch (RuntimeException e) {
                    Outcomes.endWrite(invocation, e);
                } finally {
                    proxy.letCommitsPass(0);
                }
                settle(proxy);
                if (!bound()) {
                    readColumns();
                    current = List.of();
                    return true;
                }
                readAll(process);
                ServerFaults.pause(200);
            }
            LOG.warn("record_type {} is still bound after {} releases; the next cycle tries again",
                    CampaignTypes.RELEASED, ATTEMPTS);
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** One of the next few commits reset, or cut halfway. */
    private static void aimFault(FaultProxy proxy, Random random) {
        proxy.letCommitsPass(random.nextInt(5)); // a release commits at most five times: copy, move, unbind
        switch (random.nextInt(3)) {
            case 0 -> proxy.resetBeforeNextCommit();
            case 1 -> proxy.resetAfterNextCommit();
            default -> proxy.cutNextCommitMidPacket();
        }
    }

    /** Waits until no request held by a fault can still reach the server. */
    /**
     * Waits until the release that failed can do nothing more: no request of it held by a fault
     * can still reach the server, and its transaction has ended on the server. A COMMIT that
     * reached the server as its client was cut may still be running there; the release holds its
     * type's registry row locked until its transaction ends, so a locking read of that row waits
     * for it.
     */
    private void settle(FaultProxy proxy) {
        for (int i = 0; i < 200 && proxy.pendingDeliveries() > 0; i++) {
            ServerFaults.pause(100);
        }
        patiently("wait for the release's transaction to end", () -> {
            try (Connection connection = direct.getConnection(); Statement statement = connection.createStatement()) {
                connection.setAutoCommit(false);
                statement.setQueryTimeout(60);
                statement.executeQuery("SELECT record_type FROM " + table + "_types WHERE record_type = "
                        + CampaignTypes.RELEASED + " FOR UPDATE").close();
                connection.rollback();
                return null;
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** What the type is bound to now, read past the proxy. */
    private java.util.Optional<OwnerColumn> binding() {
        return patiently("read the type registry", () -> directCounters.admin().types().stream()
                .filter(type -> type.recordType() == CampaignTypes.RELEASED).findFirst()
                .flatMap(io.slotted.RegisteredType::owner));
    }

    private boolean bound() {
        return binding().isPresent();
    }

    /**
     * Work on the database past the proxy, tried again while the database is down (killed by the
     * fault schedule and not yet restarted), for two minutes at most. Only work that may run twice.
     */
    private static <T> T patiently(String what, java.util.function.Supplier<T> work) {
        long giveUpAt = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (true) {
            try {
                return work.get();
            } catch (RuntimeException e) {
                if (System.nanoTime() > giveUpAt) {
                    throw new IllegalStateException("could not " + what + " for two minutes: " + e, e);
                }
                ServerFaults.pause(500);
            }
        }
    }

    /** After a failed release, the type still bound: every counter must read exactly what it holds. */
    private void readAll(LibraryProcess process) {
        List<Counter> counters = current;
        List<Invocation> reads = counters.stream()
                .map(counter -> history.invoke(process.name(), Kind.READ, Map.of(), null)).toList();
        try {
            Map<Long, Long> values = process.counters().getAll(CampaignTypes.RELEASED,
                    counters.stream().map(Counter::id).toList());
            for (int i = 0; i < counters.size(); i++) {
                Counter counter = counters.get(i);
                reads.get(i).ok(Map.of(counter, values.getOrDefault(counter.id(), 0L)));
            }
        } catch (RuntimeException e) {
            reads.forEach(read -> Outcomes.endRead(read, e));
        }
    }

    /** Reads each counter's column, where the release put it. */
    private void readColumns() {
        releases++;
        OwnerColumn owner = owner(cycle);
        released.putAll(patiently("read " + owner, () -> {
            Map<Counter, Long> columns = new java.util.HashMap<>();
            try (Connection connection = direct.getConnection(); Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT id, total FROM " + owner.table())) {
                while (rows.next()) {
                    columns.put(new Counter(CampaignTypes.RELEASED, rows.getLong(1)), rows.getLong(2));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return columns;
        }));
    }

    /** Creates the next cycle's owner table, binds the type to it, and gives each counter an increment. */
    private void next() {
        int n = cycle + 1;
        OwnerColumn owner = owner(n);
        List<Counter> counters = LongStream.rangeClosed(1, PER_CYCLE)
                .mapToObj(i -> new Counter(CampaignTypes.RELEASED, n * ID_STEP + i)).toList();
        patiently("create " + owner.table(), () -> {
            OwnerTables.create(direct, owner, counters);
            return null;
        });
        if (!binding().equals(java.util.Optional.of(owner))) {
            patiently("bind record_type " + CampaignTypes.RELEASED + " to " + owner, () -> binding()
                    .equals(java.util.Optional.of(owner)) ? null
                            : directCounters.owners().adopt(CampaignTypes.RELEASED, owner, OwnerMode.COPY));
        }
        Random random = new Random(n);
        List<Increment> increments = new ArrayList<>();
        List<Invocation> adds = new ArrayList<>();
        for (Counter counter : counters) {
            long delta = 1 + random.nextInt(1_000_000);
            increments.add(new Increment(counter.type(), counter.id(), delta));
            adds.add(history.invoke("direct", Kind.ADD, Map.of(counter, delta), null));
        }
        try {
            directCounters.addAll(increments);
            adds.forEach(Invocation::ok);
        } catch (RuntimeException e) {
            adds.forEach(add -> Outcomes.endWrite(add, e)); // the database was down: fewer chunks this cycle
        }
        cycle = n;
        current = counters;
    }
}
