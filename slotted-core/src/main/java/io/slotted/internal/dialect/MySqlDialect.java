package io.slotted.internal.dialect;

import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.sql.TableName;

/**
 * MySQL 8: MariaDB's statements, but for the two places the servers part.
 *
 * <p>A multi-row upsert names the inserted row with an alias ({@code AS new … count + new.count},
 * MySQL 8.0.19 and later), the form that replaces {@code VALUES(count)}, deprecated since 8.0.20.
 * And MySQL has no {@code RETURNING}: recording new names is an {@code INSERT IGNORE} that answers
 * nothing, followed by a lookup.
 */
public final class MySqlDialect extends MariaDbDialect {
    /** Creates the dialect; a MySQL server is never a Galera node here. */
    public MySqlDialect() {
        super(false);
    }

    @Override
    public String name() {
        return "MySQL";
    }

    @Override
    public String schemaDatabase() {
        return "mysql";
    }

    @Override
    protected String onDuplicateKey(String insert, String update) {
        return insert + " AS new ON DUPLICATE KEY UPDATE count = " + update.replace("%s", "new.count");
    }

    @Override
    public NameStatements nameStatements(TableName names) {
        return new NameStatements(names) {
            @Override
            public String claim(int count) {
                return "INSERT IGNORE INTO " + names + " (record_type, name, record_id, created_ms) VALUES "
                        + parameterTuples(count, 4);
            }

            @Override
            public boolean claimAnswers() {
                return false;
            }
        };
    }
}
