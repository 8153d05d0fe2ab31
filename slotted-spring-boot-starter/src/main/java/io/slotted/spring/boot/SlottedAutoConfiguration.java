package io.slotted.spring.boot;

import io.slotted.SlottedCounters;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;

/**
 * A {@link SlottedCounters} bean on the application's {@link DataSource}, configured by the
 * {@code slotted.*} properties ({@link SlottedProperties}). Backs off when the application defines
 * its own counters or has no single data source.
 *
 * <p>The counters work on a pool of their own beside the application's ({@link SlottedConnections}),
 * so that an increment inside a {@code @Transactional} method, which waits for a flush while its
 * transaction holds one of the application's connections, never waits for the application's pool.
 *
 * <p>The counters are migrated when they are made ({@code slotted.schema}, {@code migrate} by
 * default), so a missing table is created and a wrong one stops start-up; with {@code verify} the
 * schema is only checked, and a missing table or column stops start-up naming the file that makes
 * it. Either way after the application's Flyway or Liquibase migrations, and any other database
 * initializer Spring Boot knows, have run ({@link DependsOnDatabaseInitialization}), so that the
 * schema they make is the one checked. They are closed when the context
 * closes — after the web server's graceful shutdown, which lets requests in progress finish, and
 * before the data source, which they depend on — and closing writes everything already accepted.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(SlottedProperties.class)
public class SlottedAutoConfiguration {
    /**
     * The counters' connections: a pool of their own made from the application's HikariCP
     * settings, so that the counters never wait for a connection the application holds (see
     * {@link SlottedConnections}). Closed after the counters.
     *
     * @param dataSource the application's data source
     * @param properties the {@code slotted.*} properties
     * @return the counters' connections
     */
    @Bean
    @ConditionalOnMissingBean(SlottedCounters.class)
    SlottedConnections slottedConnections(DataSource dataSource, SlottedProperties properties) {
        return SlottedConnections.of(dataSource, properties);
    }

    /**
     * The counters.
     *
     * @param dataSource the application's data source, whose transactions increments join
     * @param connections the counters' own connections
     * @param properties the {@code slotted.*} properties
     * @return counters, joining Spring-managed transactions when {@code slotted.join-transactions}
     * @throws InvalidSlottedPropertyException if a property's value is refused
     */
    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    public SlottedCounters slottedCounters(DataSource dataSource, SlottedConnections connections,
            SlottedProperties properties) {
        SlottedCounters counters = CountersFromProperties.build(connections.dataSource(), properties);
        try {
            switch (properties.schemaHandling()) {
                case MIGRATE -> counters.migrate();
                case VERIFY -> counters.verifySchema();
                case NONE -> { }
            }
        } catch (RuntimeException e) {
            counters.close();
            throw e;
        }
        return properties.isJoinTransactions() ? new TransactionJoiningCounters(counters, dataSource) : counters;
    }
}
