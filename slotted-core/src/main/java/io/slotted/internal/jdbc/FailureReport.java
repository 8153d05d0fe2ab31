package io.slotted.internal.jdbc;

import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.OutcomeUnknownException;
import io.slotted.SchemaException;
import io.slotted.SlottedException;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.sql.TableName;
import java.sql.SQLException;

/**
 * Turns a classified {@link SQLException} into the public exception a caller sees, with a message
 * that names the operation, the table, the failure's meaning, its SQLState and vendor code, and how
 * many attempts were made.
 */
public final class FailureReport {
    private FailureReport() {
    }

    /**
     * Builds the exception for a failure that will not be retried.
     *
     * @param operation what was being done, such as "add 5 to counter (record_type=1, record_id=2)"
     * @param table the counter table
     * @param failure the failure's meaning
     * @param cause the driver's exception
     * @param attempts how many attempts were made
     * @param writeSent true if a write may have reached the database before the connection failed
     * @return the exception to throw
     */
    public static SlottedException of(String operation, TableName table, Failure failure,
            SQLException cause, int attempts, boolean writeSent) {
        String where = operation + " in table " + table;
        String codes = codes(cause);
        return switch (failure) {
            case CONTENTION, DUPLICATE_KEY -> new ContentionException(where + " failed: "
                    + failure.description() + "; gave up after " + attempts
                    + (attempts == 1 ? " attempt" : " attempts") + ", nothing was applied. " + codes,
                    attempts, cause);
            case OVERFLOW -> new CounterOverflowException(where + " would leave the range of the"
                    + " count column; nothing was changed. " + codes, cause);
            case MISSING_TABLE -> new SchemaException("table " + table + " or its flush ledger does"
                    + " not exist (the database's message below names which): call migrate() or run"
                    + " 'slotted migrate' to create them (" + operation + "). " + codes, cause);
            case WRONG_SHAPE -> new SchemaException("table " + table + " lacks a column Slotted"
                    + " uses: call migrate() to see what is wrong (" + operation + "). " + codes, cause);
            case NOT_PERMITTED -> new SlottedException(where + " failed: the database user lacks a privilege"
                    + " it needs (the database's message below names which); Slotted's tables need the privileges"
                    + " SELECT, INSERT, UPDATE and DELETE (docs/schema.md). " + codes, cause);
            case CONNECTION -> writeSent
                    ? new OutcomeUnknownException(where + ": the connection was lost while the"
                            + " write was in flight; it may or may not have been applied. " + codes, cause)
                    : unavailable(operation, cause);
            case OTHER -> new SlottedException(where + " failed. " + codes, cause);
        };
    }

    /**
     * Builds the exception for a connection that could not be had at all.
     *
     * @param operation what was about to be done
     * @param cause the pool's or driver's exception
     * @return the exception to throw
     */
    public static DatabaseUnavailableException unavailable(String operation, SQLException cause) {
        return new DatabaseUnavailableException("database unavailable, could not " + operation
                + "; nothing was applied. " + codes(cause), cause);
    }

    /** A failure's SQLState, vendor code and message, for a message of its own. */
    public static String describe(SQLException e) {
        return codes(e);
    }

    private static String codes(SQLException e) {
        return "[SQLState " + e.getSQLState() + ", vendor code " + e.getErrorCode() + ": "
                + e.getMessage() + "]";
    }
}
