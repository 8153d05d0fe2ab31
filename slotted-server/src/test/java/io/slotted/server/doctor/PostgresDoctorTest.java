package io.slotted.server.doctor;

import io.slotted.db.EmbeddedPostgresServer;
import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.RestartableServer;

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

    @Override
    protected RestartableServer privateServerWithTls() {
        return EmbeddedPostgresServer.privateServerWithTls("doctor-tls");
    }
}
