package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import java.sql.SQLException;
import java.util.List;

/**
 * The statements that spend from allowance rows of bounded counters ({@code BoundedCounters}) and
 * set the flusher's mark to the flush's number, for a database that has the one-statement flush
 * ({@code Dialect.spendStatements}); elsewhere the flush spends in the ledger's transaction. Only
 * numbers are written into the text. Standard SQL; each database says how a shortfall fails the
 * statement, and how that failure is told apart.
 */
public abstract class SpendStatements {
    private final TableName counters;
    private final String aloneComment;
    private final String shortfall;

    /**
     * The spends of one counter table.
     *
     * @param counters the checked counter table name
     * @param aloneComment what the statement that commits by itself begins with: the flush's
     *     comment, by which a proxy of the tests tells a flush in auto-commit
     * @param shortfall an expression of {@code count} that fails the statement, with the error
     *     {@link #fellShort} tells apart: what an allowance that does not cover its spend is set to
     */
    protected SpendStatements(TableName counters, String aloneComment, String shortfall) {
        this.counters = counters;
        this.aloneComment = aloneComment;
        this.shortfall = shortfall;
    }

    /**
     * One statement that spends and sets the mark in the caller's transaction; its update count
     * tells whether every allowance covered its spend: one row per spend and the mark. The caller
     * commits only then, and the mark, committed with the spends, tells a retry after a lost
     * COMMIT that they landed; it is set only if it holds a lower number
     * ({@link FlushMark#unlessFenced}), so a statement held up on its way until after its retry
     * fails whole.
     *
     * @param mark the flusher's mark with this flush's number
     * @param spends the spends, in counter order, at least one
     * @return the SQL text
     */
    public String andMark(FlushMark mark, List<AllowanceSpend> spends) {
        return "UPDATE " + counters + " SET count = CASE WHEN record_type = " + FlushMark.RECORD_TYPE + " THEN "
                + FlushMark.unlessFenced("count", Integer.toString(mark.value())) + " ELSE count + "
                + spentAmounts(spends) + " END WHERE (record_type = " + FlushMark.RECORD_TYPE + " AND record_id = "
                + mark.recordId() + " AND slot = " + mark.slot() + ") OR " + spentRows(spends);
    }

    /**
     * {@link #andMark} as one statement that commits by itself, in auto-commit, landing whole or
     * not at all: every allowance covers its spend and the mark is set, updating one row per spend
     * and the mark; or an allowance falls short and the statement fails with an error that
     * {@link #fellShort} tells apart, having changed nothing. It is one plain {@code UPDATE} of
     * those rows, which costs the server what an unbounded flush's upsert does (a join or a second
     * {@code UPDATE} to check the allowances first measured slower), so it counts on every
     * allowance row it names being there: a flusher names only rows it has seen, and no allowance
     * row is ever deleted ({@code BoundedCounters}). Each allowance row's new count is the spend
     * added if the row covers it, else the shortfall.
     *
     * @param mark the flusher's mark with this flush's number
     * @param spends the spends, in counter order, at least one
     * @return the SQL text
     */
    public String andMarkAlone(FlushMark mark, List<AllowanceSpend> spends) {
        StringBuilder counts = new StringBuilder("CASE WHEN record_type = " + FlushMark.RECORD_TYPE + " THEN "
                + FlushMark.unlessFenced("count", Integer.toString(mark.value())));
        StringBuilder rows = new StringBuilder("(record_type = " + FlushMark.RECORD_TYPE + " AND record_id = "
                + mark.recordId() + " AND slot = " + mark.slot() + ")");
        for (AllowanceSpend spend : spends) {
            counts.append(" WHEN ").append(spend.row()).append(" THEN CASE WHEN ").append(spend.covered())
                    .append(" THEN count + ").append(spend.amount()).append(" ELSE ").append(shortfall).append(" END");
            rows.append(" OR (").append(spend.row()).append(')');
        }
        return aloneComment + "UPDATE " + counters + " SET count = " + counts + " END WHERE " + rows;
    }

    /**
     * Whether a statement of {@link #andMarkAlone} failed because an allowance did not cover its
     * spend, having changed nothing.
     *
     * @param e the failure
     * @return true if the flush's increments are to be decided under the counters' locks
     */
    public abstract boolean fellShort(SQLException e);

    /** Each spent row's amount, by its counter: a {@code CASE} expression of numbers. */
    private static String spentAmounts(List<AllowanceSpend> spends) {
        StringBuilder amounts = new StringBuilder("CASE");
        for (AllowanceSpend spend : spends) {
            amounts.append(" WHEN record_type = ").append(spend.key().recordType()).append(" AND record_id = ")
                    .append(spend.key().recordId()).append(" THEN ").append(spend.amount());
        }
        return amounts.append(" END").toString();
    }

    /** The allowance rows that cover their spends, as one condition. */
    private static String spentRows(List<AllowanceSpend> spends) {
        StringBuilder rows = new StringBuilder();
        for (AllowanceSpend spend : spends) {
            rows.append(rows.length() == 0 ? "(" : " OR ").append(spend.condition());
        }
        return rows.append(")").toString();
    }
}
