package io.slotted.example.downloads;

import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Binds the downloads counter to {@code repositories.downloads_count} when the application first
 * starts on a database. The binding is recorded in the database, so every instance of the
 * application sees it; later starts find it made. In fold mode the column's value is each
 * counter's base, so a column that already holds counts is adopted without copying anything.
 */
@Component
class DownloadsCountColumn implements ApplicationRunner {
    private static final Logger log = LoggerFactory.getLogger(DownloadsCountColumn.class);
    static final OwnerColumn COLUMN = OwnerColumn.parse("repositories.id.downloads_count");

    private final SlottedCounters counters;

    DownloadsCountColumn(SlottedCounters counters) {
        this.counters = counters;
    }

    @Override
    public void run(ApplicationArguments args) {
        try {
            counters.owners().adopt(DownloadsApplication.DOWNLOADS, COLUMN, OwnerMode.FOLD);
            log.info("downloads are now rolled up into {}", COLUMN);
        } catch (IllegalStateException alreadyBound) {
            log.info("downloads were already bound: {}", alreadyBound.getMessage());
        }
    }
}
