package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The doctor on MariaDB for a user without the PROCESS privilege, which its lock window needs. */
class MissingProcessGrantTest {
    private final TestDatabase db = MariaDbTestDatabase.instance();
    private final String table = DoctorSuite.freshName();

    @Test
    void aUserWithoutProcess_isToldWhichGrantIsMissing_andSeesTheRest() {
        String user = table + "_np";
        db.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw-" + user + "'");
        db.execute("CREATE USER '" + user + "'@'localhost' IDENTIFIED BY 'pw-" + user + "'");
        try {
            db.execute("GRANT SELECT ON *.* TO '" + user + "'@'%'");
            db.execute("GRANT SELECT ON *.* TO '" + user + "'@'localhost'");
            String url = db.jdbcUrl().replaceFirst("user=[^&]*", "user=" + user + "&password=pw-" + user);
            DoctorReport report;
            try (HikariDataSource limited = db.poolFor(url, "doctor-no-process", 2)) {
                report = new Doctor(limited, DoctorSettings.watching(Duration.ofSeconds(1), ""), Clock.systemUTC())
                        .examine();
            }

            System.out.println(DoctorText.render(report));
            assertThat(report.missingGrants()).singleElement().asString()
                    .startsWith("PROCESS: GRANT PROCESS ON *.* TO <this user>");
            assertThat(report.checks()).extracting(Check::name).contains("innodb_flush_log_at_trx_commit");
            assertThat(report.deadlocks()).isEqualTo(-1);
            assertThat(report.hasFindings()).isTrue();
            assertThat(DoctorText.render(report)).contains("Missing privileges:");
        } finally {
            db.execute("DROP USER '" + user + "'@'%'");
            db.execute("DROP USER '" + user + "'@'localhost'");
        }
    }
}
