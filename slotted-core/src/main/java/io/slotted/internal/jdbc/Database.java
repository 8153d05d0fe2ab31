package io.slotted.internal.jdbc;

import io.slotted.OwnerColumn;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.dialect.statements.BucketStatements;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Dialects;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The user's data source, the counter table in it, and the dialect of the database behind it.
 *
 * <p>The dialect is detected from the first connection rather than at build time so that an
 * application can start while its database is still down.
 */
public final class Database {
    private final DataSource dataSource;
    private final TableName table;
    private volatile Dialect dialect;
    /** The dialect's statements of the two tables, made once with it: reads ask for them each time. */
    private volatile SlotStatements slotStatements;
    private volatile BucketStatements bucketStatements;

    /**
     * Creates the handle; opens no connection.
     *
     * @param dataSource the user's data source
     * @param table the counter table
     */
    public Database(DataSource dataSource, TableName table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    /**
     * Borrows a connection, detecting the dialect on the first one.
     *
     * @return an open connection the caller must close
     * @throws SQLException if none can be had
     */
    public Connection connect() throws SQLException {
        Connection connection = dataSource.getConnection();
        try {
            dialectOf(connection);
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * The dialect, detected from {@code connection} if it is not known yet.
     *
     * @param connection any open connection to this database
     * @return the dialect
     * @throws SQLException if the metadata cannot be read
     */
    public Dialect dialectOf(Connection connection) throws SQLException {
        Dialect known = dialect;
        if (known == null) {
            known = Dialects.detect(connection);
            slotStatements = known.slotStatements(table);
            bucketStatements = known.bucketStatements(buckets(), table);
            dialect = known; // last: whoever sees the dialect sees its statements
        }
        return known;
    }

    /**
     * The dialect; only valid after a connection has been made.
     *
     * @return the dialect
     * @throws IllegalStateException if no connection has been made yet
     */
    public Dialect dialect() {
        return detected(dialect);
    }

    /** What is known once the first connection has been made. */
    private static <T> T detected(T known) {
        if (known == null) {
            throw new IllegalStateException("dialect is detected on the first connection");
        }
        return known;
    }

    /**
     * The statements that read, lock and delete slot rows of the counter table outside the flush;
     * only valid after a connection has been made.
     *
     * @return the statements
     * @throws IllegalStateException if no connection has been made yet
     */
    public SlotStatements slotStatements() {
        return detected(slotStatements);
    }

    /**
     * The statements that read, lock and delete time bucket rows outside the flush; only valid
     * after a connection has been made.
     *
     * @return the statements
     * @throws IllegalStateException if no connection has been made yet
     */
    public BucketStatements bucketStatements() {
        return detected(bucketStatements);
    }

    /**
     * The statements that read and write a type's owner column beside the counter table's slot
     * rows; only valid after a connection has been made.
     *
     * @param owner the owner column
     * @return the statements
     * @throws IllegalStateException if no connection has been made yet
     */
    public OwnerStatements ownerStatements(OwnerColumn owner) {
        return dialect().ownerStatements(owner, table);
    }

    /**
     * The counter table.
     *
     * @return the checked table name
     */
    public TableName table() {
        return table;
    }

    /**
     * The time bucket table beside the counter table.
     *
     * @return the checked table name
     */
    public TableName buckets() {
        return table.withSuffix(SchemaMigrator.BUCKETS_SUFFIX);
    }
}
