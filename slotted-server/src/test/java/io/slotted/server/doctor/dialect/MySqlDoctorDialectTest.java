package io.slotted.server.doctor.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.internal.dialect.MySqlDialect;
import io.slotted.server.doctor.Check;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * Where the doctor's MySQL parts from its MariaDB without a MySQL server to ask: the grants its
 * lock tables need, the redo log MySQL can switch off, and how to verify the certificate MySQL
 * makes itself. Its SQL runs on MySQL only, in the doctor suite, where a server is named by
 * {@code SLOTTED_TEST_MYSQL_URL}.
 */
class MySqlDoctorDialectTest {
    private final DoctorDialect mySql = DoctorDialects.of(new MySqlDialect());

    @Test
    void lockTablesRefused_namesBothGrants_performanceSchemasAndProcess() {
        String grant = mySql.lockTablesRefused(new SQLException("SELECT command denied to user 'u'@'%' for"
                + " table 'data_lock_waits'", "42000", 1142));

        assertThat(grant).startsWith("PROCESS and SELECT on performance_schema: GRANT PROCESS ON *.* TO"
                + " <this user> and GRANT SELECT ON performance_schema.* TO <this user>")
                .contains("no hot rows, deadlocks or lock waits were sampled")
                .contains("data_lock_waits");
    }

    @Test
    void aDisabledRedoLog_isAFinding_thatSaysHowToEnableIt() {
        Check off = MySqlDoctorDialect.redoLog("OFF");

        assertThat(off.ok()).isFalse();
        assertThat(off.value()).isEqualTo("OFF");
        assertThat(off.why()).contains("a crash can lose every acknowledged increment");
        assertThat(off.advice()).isEqualTo("ALTER INSTANCE ENABLE INNODB REDO_LOG");
        assertThat(MySqlDoctorDialect.redoLog("ON").ok()).isTrue();
    }

    @Test
    void aPlainSessionOverTheNetwork_isAdvisedToVerifyMySqlsOwnCertificateAuthority() {
        Check plain = MariaDbDoctorDialect.sessionTransport("", "", "10.1.2.3:5000")
                .judge(new MySqlDoctorDialect().turnTlsOn());

        assertThat(plain.advice()).isEqualTo("turn TLS on in the JDBC URL: add sslMode=verify-ca"
                + "&serverSslCert=/path/to/ca.pem (MariaDB Connector/J 3.x; MySQL 8 has TLS on by default"
                + " with a certificate authority it made itself, ca.pem in its data directory; verify-full"
                + " needs a server certificate issued for its host name)");
    }

    @Test
    void theSettingsMariaDbAndMySqlShare_areJudgedAlike() {
        assertThat(MariaDbDoctorDialect.flushLogAtCommit("2").advice())
                .isEqualTo("SET GLOBAL innodb_flush_log_at_trx_commit = 1 (and in the server's config)");
        assertThat(MariaDbDoctorDialect.binaryLogSync("1", "0").ok()).as("MySQL shows log_bin as 1").isFalse();
        assertThat(MariaDbDoctorDialect.binaryLogSync("0", "0").value()).isEqualTo("0 (log_bin OFF)");
        assertThat(MariaDbDoctorDialect.strictMode("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES").ok()).isTrue();
        assertThat(MariaDbDoctorDialect.strictMode("NO_ENGINE_SUBSTITUTION").ok()).isFalse();
    }
}
