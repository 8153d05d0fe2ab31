package io.slotted.server.doctor.locks;

/**
 * A table, with the schema (database on MariaDB) it is in.
 *
 * @param schema the schema or database
 * @param name the table's name
 */
public record TableRef(String schema, String name) {
    @Override
    public String toString() {
        return schema == null || schema.isEmpty() ? name : schema + "." + name;
    }
}
