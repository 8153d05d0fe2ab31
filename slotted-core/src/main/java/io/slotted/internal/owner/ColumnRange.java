package io.slotted.internal.owner;

import io.slotted.internal.schema.TableShape;
import io.slotted.internal.sql.SlotRange;
import java.sql.Types;
import java.util.Locale;
import java.util.Optional;

/**
 * The values an integer owner column can hold, so that a roll-up that would leave them is refused
 * before it is tried, naming the counter, rather than failing a whole batch in the database.
 *
 * @param typeName the column's type as the database names it
 * @param min the smallest value
 * @param max the largest value
 */
public record ColumnRange(String typeName, long min, long max) {

    /**
     * The range of an integer column.
     *
     * @param column the column's metadata
     * @return its range, or empty if it is not an integer type
     */
    public static Optional<ColumnRange> of(TableShape.Column column) {
        int bits = switch (column.jdbcType()) {
            case Types.TINYINT -> 8;
            case Types.SMALLINT -> 16;
            case Types.INTEGER -> 32;
            case Types.BIGINT -> 64;
            default -> 0;
        };
        if (bits == 0) {
            return Optional.empty();
        }
        String type = column.typeName();
        if (type.toUpperCase(Locale.ROOT).contains("UNSIGNED")) {
            long max = bits == 64 ? Long.MAX_VALUE : (1L << bits) - 1;
            return Optional.of(new ColumnRange(type, 0, max));
        }
        long max = bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1;
        return Optional.of(new ColumnRange(type, -max - 1, max));
    }

    /**
     * What the column may hold as a fold-mode base, whose counter's total adds the slots to it:
     * its own range within {@code [-2^62, 2^62 - 1]}, so that the base and the slots together
     * stay a signed 64-bit total (see {@link SlotRange}).
     *
     * @return the narrower range
     */
    public ColumnRange folded() {
        return new ColumnRange(typeName, Math.max(min, SlotRange.COLUMN_MIN),
                Math.min(max, SlotRange.COLUMN_MAX));
    }

    /**
     * Whether the column can hold a value.
     *
     * @param value the value
     * @return true if it is in range
     */
    public boolean holds(long value) {
        return value >= min && value <= max;
    }

    /**
     * A person's words for the column's type and range.
     *
     * @return such as {@code INT (-2147483648 to 2147483647)}
     */
    public String describe() {
        return typeName + " (" + min + " to " + max + ")";
    }
}
