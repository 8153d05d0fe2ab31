package io.slotted.spring.boot;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.TestDatabase;

class MariaDbSpringApplicationTest extends SpringApplicationSuite {
    @Override
    protected TestDatabase database() {
        return MariaDbTestDatabase.instance();
    }

    @Override
    protected String downloadsTableDdl(String name) {
        return "CREATE TABLE " + name + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, repository_id BIGINT NOT NULL)";
    }
}
