package io.slotted.spring.boot;

import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.TestDatabase;

class PostgresSpringApplicationTest extends SpringApplicationSuite {
    @Override
    protected TestDatabase database() {
        return PostgresTestDatabase.instance();
    }

    @Override
    protected String downloadsTableDdl(String name) {
        return "CREATE TABLE " + name + " (id BIGSERIAL PRIMARY KEY, repository_id BIGINT NOT NULL)";
    }
}
