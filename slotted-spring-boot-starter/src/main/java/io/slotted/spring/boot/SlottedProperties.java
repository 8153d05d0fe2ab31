package io.slotted.spring.boot;

import io.slotted.BucketUnit;
import io.slotted.WriteMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code slotted.*} properties: one for every setting of
 * {@link io.slotted.SlottedCountersBuilder}, and what the starter itself does at start-up.
 * Defaults are the builder's; each value is checked by the builder when the counters are built,
 * and a bad one fails start-up with a message that names the property.
 */
@ConfigurationProperties("slotted")
public class SlottedProperties {
    /** The counter table, optionally qualified by a schema. */
    private String table = "slotted_counters";

    /** How increments are written: grouped (group commit), direct (one upsert each) or buffered. */
    private WriteMode writeMode = WriteMode.GROUPED;

    /** Slots per counter, from 1 to 1024. Default: the write mode's (16 for grouped and buffered). */
    private Integer slots;

    /** Attempts a write gets on a deadlock, lock-wait timeout or serialization failure, counting the first. */
    private int maxAttempts = 5;

    /** The first retry's nominal wait; later waits double, up to a second, jittered. */
    private Duration retryBackoff = Duration.ofMillis(10);

    /** Flushers writing in parallel in grouped and buffered modes, each on its own connection. */
    private int flushers = 2;

    /**
     * Connections of the counters' own pool, beside the application's (made from its HikariCP
     * settings); at least one more than the flushers. Default: the flushers and four more.
     */
    private Integer poolSize;

    /** Increments that may wait for a flush; callers are held back when it is full. */
    private int queueCapacity = 100_000;

    /** How long a caller waits for room in a full queue before failing. */
    private Duration queueFullWait = Duration.ofSeconds(1);

    /** How often buffered mode writes: the most a crash can lose. */
    private Duration flushInterval = Duration.ofMillis(200);

    /** How long a flush whose commit outcome is unknown tries to learn it from the flush ledger. */
    private Duration outcomeResolutionTimeout = Duration.ofSeconds(30);

    /** How long an idempotency key is remembered, at least. */
    private Duration idempotencyRetention = Duration.ofHours(24);

    /** How often this application rolls up counter types bound to an owner column; unset: never. */
    private Duration rollUpEvery;

    /** In buffered mode, whether reads add this process's accepted but unwritten increments. */
    private boolean readsIncludeUnwritten;

    /**
     * The older spelling of {@code slotted.schema}: false is {@code none}. Used only when
     * {@code slotted.schema} is not set.
     */
    private boolean migrate = true;

    /**
     * What the starter does with the schema when the application starts, after Flyway or
     * Liquibase: migrate (create what is missing), verify (check only, and refuse to start naming
     * what is missing and the file that makes it) or none. Default: migrate, or none where
     * slotted.migrate is false.
     */
    private Schema schema;

    /**
     * Whether add and increment called inside a Spring-managed transaction on the same DataSource
     * write through the transaction's connection, landing or rolling back with it.
     */
    private boolean joinTransactions;

    /** Settings of one counter type, by its record_type number: slots, time buckets and limits. */
    private Map<Integer, Type> types = new LinkedHashMap<>();

    /** What the slotted health indicator reports as down. */
    private final Health health = new Health();

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public WriteMode getWriteMode() {
        return writeMode;
    }

    public void setWriteMode(WriteMode writeMode) {
        this.writeMode = writeMode;
    }

    public Integer getSlots() {
        return slots;
    }

    public void setSlots(Integer slots) {
        this.slots = slots;
    }

    public int getMaxAttempts() {
        return maxAttempts;
    }

    public void setMaxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public Duration getRetryBackoff() {
        return retryBackoff;
    }

    public void setRetryBackoff(Duration retryBackoff) {
        this.retryBackoff = retryBackoff;
    }

    public int getFlushers() {
        return flushers;
    }

    public void setFlushers(int flushers) {
        this.flushers = flushers;
    }

    public Integer getPoolSize() {
        return poolSize;
    }

    public void setPoolSize(Integer poolSize) {
        this.poolSize = poolSize;
    }

    public int getQueueCapacity() {
        return queueCapacity;
    }

    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    public Duration getQueueFullWait() {
        return queueFullWait;
    }

    public void setQueueFullWait(Duration queueFullWait) {
        this.queueFullWait = queueFullWait;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    public Duration getOutcomeResolutionTimeout() {
        return outcomeResolutionTimeout;
    }

    public void setOutcomeResolutionTimeout(Duration outcomeResolutionTimeout) {
        this.outcomeResolutionTimeout = outcomeResolutionTimeout;
    }

    public Duration getIdempotencyRetention() {
        return idempotencyRetention;
    }

    public void setIdempotencyRetention(Duration idempotencyRetention) {
        this.idempotencyRetention = idempotencyRetention;
    }

    public Duration getRollUpEvery() {
        return rollUpEvery;
    }

    public void setRollUpEvery(Duration rollUpEvery) {
        this.rollUpEvery = rollUpEvery;
    }

    public boolean isReadsIncludeUnwritten() {
        return readsIncludeUnwritten;
    }

    public void setReadsIncludeUnwritten(boolean readsIncludeUnwritten) {
        this.readsIncludeUnwritten = readsIncludeUnwritten;
    }

    public boolean isMigrate() {
        return migrate;
    }

    public void setMigrate(boolean migrate) {
        this.migrate = migrate;
    }

    public Schema getSchema() {
        return schema;
    }

    public void setSchema(Schema schema) {
        this.schema = schema;
    }

    /**
     * What is done with the schema at start: {@code slotted.schema}, else as {@code slotted.migrate} says.
     *
     * @return the schema handling
     */
    public Schema schemaHandling() {
        return schema != null ? schema : migrate ? Schema.MIGRATE : Schema.NONE;
    }

    public boolean isJoinTransactions() {
        return joinTransactions;
    }

    public void setJoinTransactions(boolean joinTransactions) {
        this.joinTransactions = joinTransactions;
    }

    public Map<Integer, Type> getTypes() {
        return types;
    }

    public void setTypes(Map<Integer, Type> types) {
        this.types = types;
    }

    public Health getHealth() {
        return health;
    }

    /** {@code slotted.types.<record_type>.*}: the settings of one counter type. */
    public static class Type {
        /** Slots for this type, overriding slotted.slots. */
        private Integer slots;

        /** Time buckets this type also counts in, for series and top-N reads. */
        private final Buckets buckets = new Buckets();

        /**
         * Limits this type's totals are kept within, written MIN..MAX with either end left out for
         * none: 0.. for stock, ..1000 for a quota. An increment that would pass them is refused
         * (LimitExceededException, or false from tryAdd). Not in buffered mode.
         */
        private String limits;

        /**
         * Whether this type's counters may expire, as Redis keys do (counters.expiry()): each
         * write then takes its counter's expiry lock. Every process writing the type must say so.
         * Not with limits or buckets.
         */
        private boolean expiring;

        public Integer getSlots() {
            return slots;
        }

        public void setSlots(Integer slots) {
            this.slots = slots;
        }

        public Buckets getBuckets() {
            return buckets;
        }

        public String getLimits() {
            return limits;
        }

        public void setLimits(String limits) {
            this.limits = limits;
        }

        public boolean isExpiring() {
            return expiring;
        }

        public void setExpiring(boolean expiring) {
            this.expiring = expiring;
        }
    }

    /** {@code slotted.types.<record_type>.buckets.*}: set both, or neither. */
    public static class Buckets {
        /** The bucket length: minute, hour or day, aligned in UTC. */
        private BucketUnit unit;

        /** How long buckets are kept: a whole number of buckets, at least one. */
        private Duration retention;

        public BucketUnit getUnit() {
            return unit;
        }

        public void setUnit(BucketUnit unit) {
            this.unit = unit;
        }

        public Duration getRetention() {
            return retention;
        }

        public void setRetention(Duration retention) {
            this.retention = retention;
        }
    }

    /** {@code slotted.health.*}. */
    public static class Health {
        /** How long the health check may wait for the database before it reports it down. */
        private Duration timeout = Duration.ofSeconds(2);

        /** Owner columns trailing their counters by more than this report the application down. */
        private Duration maxRollUpLag = Duration.ofMinutes(5);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public Duration getMaxRollUpLag() {
            return maxRollUpLag;
        }

        public void setMaxRollUpLag(Duration maxRollUpLag) {
            this.maxRollUpLag = maxRollUpLag;
        }
    }

    /** What the starter does with the schema when the application starts ({@code slotted.schema}). */
    public enum Schema {
        /** Creates what is missing, as {@code migrate()} does; checks the rest. */
        MIGRATE,
        /** Checks only ({@code verifySchema()}): the schema is made by the application's migrations. */
        VERIFY,
        /** Neither. */
        NONE
    }
}
