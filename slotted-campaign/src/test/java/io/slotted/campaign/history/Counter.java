package io.slotted.campaign.history;

/**
 * A counter the campaign writes: a record type and a record id.
 *
 * @param type the record type
 * @param id the record id
 */
public record Counter(int type, long id) implements Comparable<Counter> {
    @Override
    public int compareTo(Counter other) {
        int byType = Integer.compare(type, other.type);
        return byType != 0 ? byType : Long.compare(id, other.id);
    }

    @Override
    public String toString() {
        return "(" + type + ", " + id + ")";
    }
}
