package io.slotted.server.doctor.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.H2Dialect;
import io.slotted.internal.dialect.MariaDbDialect;
import io.slotted.internal.dialect.MySqlDialect;
import io.slotted.internal.dialect.PostgresDialect;
import io.slotted.server.doctor.locks.MariaDbLockWindow;
import io.slotted.server.doctor.locks.MySqlLockWindow;
import io.slotted.server.doctor.locks.PostgresLockWindow;
import org.junit.jupiter.api.Test;

/**
 * Which doctor's dialect each of core's dialects gets: by its exact class, so that MySQL, whose
 * dialect extends MariaDB's in core, gets the doctor's MySQL and not MariaDB's; and a clear error
 * for a dialect the doctor does not know. The checks themselves are run against the real servers
 * in the doctor suites.
 */
class DoctorDialectsTest {
    @Test
    void eachOfCoresDialects_getsTheDoctorsDialectOfItsDatabase() {
        assertThat(DoctorDialects.of(new H2Dialect())).isExactlyInstanceOf(H2DoctorDialect.class);
        assertThat(DoctorDialects.of(new MariaDbDialect(false))).isExactlyInstanceOf(MariaDbDoctorDialect.class);
        assertThat(DoctorDialects.of(new MariaDbDialect(true))).as("a Galera node")
                .isExactlyInstanceOf(MariaDbDoctorDialect.class);
        assertThat(DoctorDialects.of(new MySqlDialect())).isExactlyInstanceOf(MySqlDoctorDialect.class);
        assertThat(DoctorDialects.of(new PostgresDialect())).isExactlyInstanceOf(PostgresDoctorDialect.class);
    }

    @Test
    void eachDatabase_samplesRowLocksWhereItKeepsThem() {
        assertThat(DoctorDialects.of(new MariaDbDialect(false)).newLockWindow())
                .containsInstanceOf(MariaDbLockWindow.class).get().isExactlyInstanceOf(MariaDbLockWindow.class);
        assertThat(DoctorDialects.of(new MySqlDialect()).newLockWindow()).containsInstanceOf(MySqlLockWindow.class);
        assertThat(DoctorDialects.of(new PostgresDialect()).newLockWindow()).containsInstanceOf(PostgresLockWindow.class);
        assertThat(DoctorDialects.of(new H2Dialect()).newLockWindow()).isEmpty();
    }

    @Test
    void eachRun_getsAWindowOfItsOwn() {
        DoctorDialect mySql = DoctorDialects.of(new MySqlDialect());

        assertThat(mySql.newLockWindow().orElseThrow()).isNotSameAs(mySql.newLockWindow().orElseThrow());
    }

    /**
     * As MySQL's dialect extends MariaDB's in core, so may the next database's: until the doctor
     * has a dialect of its own for it, it must not be examined with MariaDB's SQL.
     */
    @Test
    void aDialectTheDoctorDoesNotKnow_isAClearError_notAnotherDatabasesChecks() {
        Dialect unknown = new MariaDbDialect(false) {
            @Override
            public String name() {
                return "TiDB";
            }
        };

        assertThatThrownBy(() -> DoctorDialects.of(unknown)).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the doctor has no checks for TiDB (")
                .hasMessageEndingWith("it knows [H2Dialect, MariaDbDialect, MySqlDialect, PostgresDialect]");
    }
}
