package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * The statements of the name dictionary ({@code NameRows}). Its lookups are standard SQL that
 * every supported database takes; the claim, which records names absent from the dictionary,
 * is each database's own, so each dialect gives a subclass ({@code Dialect.nameStatements}).
 */
public abstract class NameStatements {
    /** The dictionary table. */
    protected final TableName names;

    /**
     * The statements of one dictionary table.
     *
     * @param names the checked dictionary table name
     */
    protected NameStatements(TableName names) {
        this.names = names;
    }

    /**
     * One statement that records names absent from the dictionary under the numbers proposed for
     * them, and leaves alone every name already recorded and every proposal whose number another
     * name has. Binds per name, in order: record type, name, proposed number, creation time
     * (milliseconds). Where {@link #claimAnswers()}, it answers rows of {@code (name, record_id)}:
     * at least the names it recorded.
     *
     * @param count how many names are bound, at least 1
     * @return the SQL text
     */
    public abstract String claim(int count);

    /**
     * Whether {@link #claim} answers rows; where it does not, a lookup follows it.
     *
     * @return true if the claim's answer is a result set
     */
    public boolean claimAnswers() {
        return true;
    }

    /**
     * The bound names as the rows of a {@code VALUES} list whose column types the database must
     * know: the first row's parameters cast to the dictionary's types, the others as they come.
     *
     * @param count how many names are bound, at least 1
     * @return the rows, comma-separated
     */
    protected static String typedValues(int count) {
        String first = "(CAST(? AS INT), CAST(? AS VARCHAR(512)), CAST(? AS BIGINT), CAST(? AS BIGINT))";
        String tuple = "(?, ?, ?, ?)";
        return first + String.join("", Collections.nCopies(count - 1, ", " + tuple));
    }

    /**
     * The numbers of recorded names of one type: rows of {@code (name, record_id)}, with the type
     * bound first and then each name.
     *
     * @param count how many names are bound
     * @return the SQL text
     */
    public String lookUp(int count) {
        return "SELECT name, record_id FROM " + names + " WHERE record_type = ? AND name IN ("
                + String.join(", ", Collections.nCopies(count, "?")) + ")";
    }

    /**
     * The names recorded for numbers of one type: rows of {@code (record_id, name)}, with the type
     * bound first and then each number.
     *
     * @param count how many numbers are bound
     * @return the SQL text
     */
    public String namesOfNumbers(int count) {
        return "SELECT record_id, name FROM " + names + " WHERE record_type = ? AND record_id IN ("
                + String.join(", ", Collections.nCopies(count, "?")) + ")";
    }

    /**
     * How many names one type has recorded, with the type bound.
     *
     * @return the SQL text
     */
    public String count() {
        return "SELECT COUNT(*) FROM " + names + " WHERE record_type = ?";
    }
}
