package io.slotted.server.doctor.locks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code SHOW ENGINE INNODB STATUS} as InnoDB writes it: the lock wait the seed article shows (a
 * transaction waiting 5 s for row 1 of {@code github.downloads}), and a deadlock MariaDB 10.11
 * described after two transactions took rows 1 and 2 of a table in opposite orders.
 */
class InnoDbStatusTest {
    private static String fixture(String name) throws IOException {
        try (InputStream in = InnoDbStatusTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theSeedsLockWait_namesTheTableTheRowTheStatementAndTheWait() throws IOException {
        InnoDbStatus status = InnoDbStatus.parse(fixture("seed-lock-wait.txt"));

        assertThat(status.waits()).hasSize(1);
        InnoDbStatus.LockWait wait = status.waits().get(0);
        assertThat(wait.transactionId()).isEqualTo(79853106L);
        assertThat(wait.threadId()).isEqualTo(24);
        assertThat(wait.waitedSeconds()).isEqualTo(5);
        assertThat(wait.statement()).isEqualTo("UPDATE slotted_counters SET count = count + 1 WHERE id = 1");
        assertThat(wait.lock()).isEqualTo(new InnoDbStatus.LockedRecord("github", "downloads", "PRIMARY",
                List.of("1")));
        assertThat(status.latestDeadlock()).isEmpty();
    }

    @Test
    void aDeadlock_namesBothStatementsTheirRowsAndWhichWasRolledBack() throws IOException {
        InnoDbStatus status = InnoDbStatus.parse(fixture("deadlock.txt"));

        InnoDbStatus.Deadlock deadlock = status.latestDeadlock().orElseThrow();
        assertThat(deadlock.detectedAt()).isEqualTo("2026-11-25 10:43:44");
        assertThat(deadlock.statements()).containsExactly("update doc_t set n=n+1 where id=1",
                "update doc_t set n=n+1 where id=2");
        assertThat(deadlock.locks()).extracting(InnoDbStatus.LockedRecord::key)
                .containsExactly(List.of("1"), List.of("2"));
        assertThat(deadlock.locks()).allSatisfy(lock -> assertThat(lock.table()).isEqualTo("doc_t"));
        assertThat(deadlock.rolledBack()).isEqualTo(1);
        assertThat(status.waits()).as("transactions of a deadlock are not waiting now").isEmpty();
    }

    @Test
    void integerFields_decodeAsInnoDbStoresThem_withTheSignBitFlipped() {
        assertThat(InnoDbStatus.decode(4, "80000001")).isEqualTo("1");
        assertThat(InnoDbStatus.decode(4, "7fffffff")).isEqualTo("-1");
        assertThat(InnoDbStatus.decode(4, "00000000")).isEqualTo(String.valueOf(Integer.MIN_VALUE));
        assertThat(InnoDbStatus.decode(8, "8000000000000456")).isEqualTo("1110");
        assertThat(InnoDbStatus.decode(8, "7fffffffffffffff")).isEqualTo("-1");
        assertThat(InnoDbStatus.decode(2, "8001")).isEqualTo("1");
        assertThat(InnoDbStatus.decode(5, "0102030405")).isEqualTo("0x0102030405");
    }
}
