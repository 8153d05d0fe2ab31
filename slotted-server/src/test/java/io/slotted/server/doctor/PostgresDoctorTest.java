package io.slotted.server.doctor;

import io.slotted.db.PostgresTestDatabase;

/** The doctor on PostgreSQL. */
class PostgresDoctorTest extends DoctorSuite {
    PostgresDoctorTest() {
        super(PostgresTestDatabase.instance());
    }

    /** PostgreSQL counts deadlocks but keeps no description of the latest one. */
    @Override
    protected void checkLatestDeadlock(DoctorReport report) {
    }

    @Override
    protected void exhaustIds(String seedTable) {
        db.execute("SELECT setval(pg_get_serial_sequence('" + seedTable + "', 'id'), 2100000000)");
    }
}
