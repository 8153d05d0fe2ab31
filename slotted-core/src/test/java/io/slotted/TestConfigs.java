package io.slotted;

import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * Configurations for unit tests of the engine's parts: checked by the builder as the application's
 * are, but with no counters built, so no flusher thread starts and no connection is opened.
 */
public final class TestConfigs {
    /** A data source that is never asked for a connection. */
    private static final DataSource NOWHERE = new DriverManagerDataSource("jdbc:h2:tcp://127.0.0.1:1/none");

    private TestConfigs() {
    }

    /**
     * A data source for parts that hold one but are never asked to connect in a unit test.
     *
     * @return a data source whose connections would fail
     */
    public static DataSource nowhere() {
        return NOWHERE;
    }

    /**
     * The configuration of a builder given these settings.
     *
     * @param settings the settings, on a fresh builder
     * @return the checked configuration
     */
    public static SlottedConfig of(UnaryOperator<SlottedCountersBuilder> settings) {
        return settings.apply(SlottedCounters.builder(NOWHERE)).config();
    }
}
