package io.slotted.spring.boot;

import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.WriteMode;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;

/**
 * Builds counters from the {@code slotted.*} properties. The builder is the one place each rule
 * lives: every property is handed to its builder setting as it is, and a refusal is rethrown as
 * {@link InvalidSlottedPropertyException} naming the property, so the rules never drift from
 * the library's and the user learns which line of their configuration to fix.
 */
final class CountersFromProperties {
    private final SlottedProperties properties;
    private final SlottedCountersBuilder builder;

    private CountersFromProperties(DataSource dataSource, SlottedProperties properties) {
        this.properties = properties;
        this.builder = SlottedCounters.builder(dataSource);
    }

    /**
     * Builds counters on a data source; touches no database.
     *
     * @throws InvalidSlottedPropertyException if a property's value is refused
     */
    static SlottedCounters build(DataSource dataSource, SlottedProperties properties) {
        return new CountersFromProperties(dataSource, properties).build();
    }

    private SlottedCounters build() {
        SlottedProperties p = properties;
        set("slotted.table", p.getTable(), builder::table);
        set("slotted.write-mode", p.getWriteMode(), builder::writeMode);
        set("slotted.slots", p.getSlots(), builder::slots);
        set("slotted.max-attempts", p.getMaxAttempts(), builder::maxAttempts);
        set("slotted.retry-backoff", p.getRetryBackoff(), builder::retryBackoff);
        set("slotted.flushers", p.getFlushers(), builder::flushers);
        set("slotted.queue-capacity", p.getQueueCapacity(), builder::queueCapacity);
        set("slotted.queue-full-wait", p.getQueueFullWait(), builder::queueFullWait);
        set("slotted.flush-interval", p.getFlushInterval(), builder::flushInterval);
        set("slotted.outcome-resolution-timeout", p.getOutcomeResolutionTimeout(),
                builder::outcomeResolutionTimeout);
        set("slotted.idempotency-retention", p.getIdempotencyRetention(), builder::idempotencyRetention);
        set("slotted.roll-up-every", p.getRollUpEvery(), builder::rollUpEvery);
        set("slotted.reads-include-unwritten", p.isReadsIncludeUnwritten(), builder::readsIncludeUnwritten);
        for (Map.Entry<Integer, SlottedProperties.Type> type : p.getTypes().entrySet()) {
            type(type.getKey(), type.getValue());
        }
        try {
            return builder.build();
        } catch (IllegalStateException e) {
            // The cross-field rules: limits need a mode other than buffered, and
            // reads-include-unwritten needs buffered mode.
            if (p.getWriteMode() == WriteMode.BUFFERED) {
                throw new InvalidSlottedPropertyException("slotted.write-mode", p.getWriteMode(), e);
            }
            throw new InvalidSlottedPropertyException("slotted.reads-include-unwritten", true, e);
        }
    }

    private void type(int recordType, SlottedProperties.Type type) {
        String prefix = "slotted.types." + recordType;
        set(prefix + ".slots", type.getSlots(), slots -> builder.slots(recordType, slots));
        set(prefix + ".limits", type.getLimits(), limits -> builder.limits(recordType, Limits.parse(limits)));
        if (type.isExpiring()) {
            if (type.getLimits() != null || type.getBuckets().getUnit() != null
                    || type.getBuckets().getRetention() != null) {
                throw new InvalidSlottedPropertyException(prefix + ".expiring", true, new IllegalArgumentException(
                        "an expiring type takes no limits and no time buckets: a counter that expires starts"
                                + " again from 0, which they would not see; give it one or the other"));
            }
            set(prefix + ".expiring", true, expiring -> builder.expiring(recordType));
        }
        SlottedProperties.Buckets buckets = type.getBuckets();
        if (buckets.getUnit() == null && buckets.getRetention() == null) {
            return;
        }
        if (buckets.getUnit() == null || buckets.getRetention() == null) {
            String missing = buckets.getUnit() == null ? ".buckets.unit" : ".buckets.retention";
            throw new InvalidSlottedPropertyException(prefix + missing, null, new IllegalArgumentException(
                    "a type's buckets need both a unit (minute, hour or day) and a retention"
                            + " (such as 30d)"));
        }
        set(prefix + ".buckets.retention", buckets.getRetention(),
                retention -> builder.buckets(recordType, buckets.getUnit(), retention));
    }

    /** Hands a property to its setting unless it is unset; a refusal names the property. */
    private static <T> void set(String property, T value, Consumer<T> setting) {
        if (value == null) {
            return;
        }
        try {
            setting.accept(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new InvalidSlottedPropertyException(property, value, e);
        }
    }
}
