package io.slotted.server.doctor.locks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Statements read as a report shows them, and the counter shape Slotted replaces. */
class StatementsTest {
    @Test
    void literals_becomeQuestionMarks_andSpacesCollapse() {
        assertThat(Statements.normalise("UPDATE  t SET n = n + 1\n WHERE id = 42 AND name = 'it''s'"))
                .isEqualTo("UPDATE t SET n = n + ? WHERE id = ? AND name = ?");
        assertThat(Statements.normalise("UPDATE t SET n = n + $1 WHERE id = $2"))
                .isEqualTo("UPDATE t SET n = n + ? WHERE id = ?");
        assertThat(Statements.normalise("SELECT c1 FROM t2 WHERE x = -3.5")).isEqualTo("SELECT c1 FROM t2 WHERE x = ?");
        assertThat(Statements.normalise(null)).isEmpty();
    }

    @Test
    void aCounterUpdate_isRecognised_withItsTableColumnAndKey() {
        assertThat(Statements.counterUpdate("update `github`.`downloads` set count = count + ? where id = ?"))
                .contains(new Statements.CounterUpdate("github.downloads", "count", "id"));
        assertThat(Statements.counterUpdate("UPDATE repos SET stars=stars-? WHERE repo_id=?"))
                .contains(new Statements.CounterUpdate("repos", "stars", "repo_id"));
    }

    @Test
    void otherStatements_areNotCounterUpdates() {
        assertThat(Statements.counterUpdate("UPDATE t SET n = m + ? WHERE id = ?")).isEmpty();
        assertThat(Statements.counterUpdate("UPDATE t SET n = ? WHERE id = ?")).isEmpty();
        assertThat(Statements.counterUpdate("UPDATE t SET n = n + ? WHERE id > ?")).isEmpty();
        assertThat(Statements.counterUpdate("DELETE FROM t WHERE id = ?")).isEmpty();
    }
}
