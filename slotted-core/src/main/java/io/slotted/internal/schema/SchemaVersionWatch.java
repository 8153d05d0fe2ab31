package io.slotted.internal.schema;

import io.slotted.SchemaException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.schema.SchemaScript;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema version recorded beside the counter table, as a running process's writes see it.
 * During a rolling deploy the newer release's {@code migrate()}, or Flyway or Liquibase running its
 * files, may upgrade the schema while processes of this release still write; a newer version is
 * recorded only when this release's writes would no longer be right. So the version is read again
 * with the type registry, once a second on the write paths, and once it is newer than this
 * release knows, every write is refused, naming why, until this process is replaced. Reads go on:
 * every release reads a total as the sum of its counter's rows.
 */
public final class SchemaVersionWatch {
    private static final Logger LOG = LoggerFactory.getLogger(SchemaVersionWatch.class);

    private final TableName counters;
    /** The version last read: 0 when none is recorded, or the schema table is missing. */
    private volatile int recorded;

    /**
     * Watches the schema of a counter table; reads nothing yet.
     *
     * @param counters the counter table
     */
    public SchemaVersionWatch(TableName counters) {
        this.counters = counters;
    }

    /**
     * Reads the recorded version again. A missing schema table (a schema made before versions were
     * recorded) reads as 0; any other failure but a lost connection keeps the last version read.
     *
     * @param connection a connection in auto-commit, or between transactions (a failure rolls
     *     back what it began)
     * @param dialect the database's dialect
     * @throws SQLException if the connection failed
     */
    public void read(Connection connection, Dialect dialect) throws SQLException {
        TableName schema = counters.withSuffix(SchemaMigrator.SCHEMA_SUFFIX);
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(dialect.schemaVersionSql(schema))) {
            recorded = row.next() ? row.getInt(1) : 0;
        } catch (SQLException e) {
            if (!connection.getAutoCommit()) {
                Transactions.rollbackQuietly(connection, e);
            }
            Failure kind = dialect.classify(e);
            if (kind == Failure.CONNECTION) {
                throw e;
            }
            if (kind == Failure.MISSING_TABLE) {
                recorded = 0;
            } else {
                LOG.debug("could not read the schema version in {}; keeping the last one read", schema, e);
            }
        }
    }

    /**
     * Refuses a write if the schema was last read as newer than this release knows.
     *
     * @throws SchemaException naming the version found and what to do
     */
    public void checkWritable() {
        int found = recorded;
        if (found > SchemaScript.VERSION) {
            throw new SchemaException("the schema of " + counters + " is now version " + found + " (table "
                    + counters + SchemaMigrator.SCHEMA_SUFFIX + "), newer than this release of Slotted knows"
                    + " (version " + SchemaScript.VERSION + "): a newer release upgraded it, and this process"
                    + " writes nothing more, since its writes may no longer be what the newer release reads."
                    + " Nothing was applied; replace this process with the newer release (reads go on)");
        }
    }
}
