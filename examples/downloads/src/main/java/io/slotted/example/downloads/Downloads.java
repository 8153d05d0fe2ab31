package io.slotted.example.downloads;

import io.slotted.SlottedCounters;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Downloads: recorded and counted together, and the most downloaded repositories. */
@Service
class Downloads {
    private final JdbcTemplate sql;
    private final SlottedCounters counters;

    Downloads(JdbcTemplate sql, SlottedCounters counters) {
        this.sql = sql;
        this.counters = counters;
    }

    /**
     * Records one download and counts it, in one transaction.
     *
     * @throws UnknownRepositoryException if there is no such repository; nothing is recorded
     */
    @Transactional
    void record(long repositoryId) {
        Integer known = sql.queryForObject("SELECT COUNT(*) FROM repositories WHERE id = ?", Integer.class,
                repositoryId);
        if (known == null || known == 0) {
            throw new UnknownRepositoryException(repositoryId);
        }
        sql.update("INSERT INTO downloads (repository_id) VALUES (?)", repositoryId);
        counters.increment(DownloadsApplication.DOWNLOADS, repositoryId);
    }

    /**
     * A repository's downloads, exact: its {@code downloads_count} plus what the slots hold that
     * was not rolled up yet. Read outside {@link #record}'s transaction, whose increment other
     * connections see only once it commits.
     */
    long count(long repositoryId) {
        return counters.get(DownloadsApplication.DOWNLOADS, repositoryId);
    }

    /** The most downloaded repositories by their rolled-up {@code downloads_count}, most first. */
    List<Repository> top(int n) {
        return sql.query("SELECT id, name, downloads_count FROM repositories"
                        + " ORDER BY downloads_count DESC, id LIMIT ?",
                (row, i) -> new Repository(row.getLong(1), row.getString(2), row.getLong(3)), n);
    }

    /** A repository and its downloads as its row holds them. */
    record Repository(long id, String name, long downloads) {
    }

    /** A download of a repository that does not exist. */
    static final class UnknownRepositoryException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownRepositoryException(long id) {
            super("no repository " + id);
        }
    }
}
