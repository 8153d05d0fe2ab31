package io.slotted.spring.boot.app;

import io.slotted.ContentionException;
import io.slotted.SlottedCounters;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * A real Spring Boot application for the starter's tests: a download is a row in
 * {@code <table>_downloads} and an increment of its repository's counter, in one transaction.
 */
@SpringBootApplication
public class DownloadsApplication {
    /** The counter type of downloads. */
    public static final int DOWNLOADS = 1;

    /** Records downloads; asked to, fails after counting, so the transaction rolls back. */
    @Service
    public static class DownloadService {
        private final JdbcTemplate sql;
        private final SlottedCounters counters;
        private final String table;

        DownloadService(JdbcTemplate sql, SlottedCounters counters) {
            this.sql = sql;
            this.counters = counters;
            this.table = counters.config().table() + "_downloads";
        }

        @Transactional
        public void record(long repositoryId, boolean failAfterCounting) {
            sql.update("INSERT INTO " + table + " (repository_id) VALUES (?)", repositoryId);
            counters.increment(DOWNLOADS, repositoryId);
            if (failAfterCounting) {
                throw new IllegalStateException("refused after counting download of " + repositoryId);
            }
        }
    }

    /** {@code POST /repositories/{id}/downloads[?fail=true]}: 201, or 500 after a rollback. */
    @RestController
    public static class DownloadController {
        private final DownloadService downloads;

        DownloadController(DownloadService downloads) {
            this.downloads = downloads;
        }

        /**
         * Records the download, trying the transaction again when the database rolled it back
         * over a lock conflict (MariaDB's upserts of new rows can deadlock on gap locks): an
         * increment that joined the transaction is not retried on its own, since the whole
         * transaction is gone.
         */
        @PostMapping("/repositories/{id}/downloads")
        @ResponseStatus(HttpStatus.CREATED)
        public void download(@PathVariable("id") long id,
                @RequestParam(name = "fail", defaultValue = "false") boolean fail) {
            for (int attempt = 1; ; attempt++) {
                try {
                    downloads.record(id, fail);
                    return;
                } catch (ContentionException | PessimisticLockingFailureException e) {
                    if (attempt == 5) {
                        throw e;
                    }
                }
            }
        }

        @ExceptionHandler(IllegalStateException.class)
        @ResponseStatus(HttpStatus.INTERNAL_SERVER_ERROR)
        public String refused(IllegalStateException e) {
            return e.getMessage();
        }
    }
}
