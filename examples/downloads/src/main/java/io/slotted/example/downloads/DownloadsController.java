package io.slotted.example.downloads;

import io.slotted.ContentionException;
import java.util.List;
import java.util.Map;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code POST /repositories/{id}/downloads} records a download; {@code GET /} lists the most
 * downloaded repositories.
 */
@RestController
class DownloadsController {
    private static final int TOP = 10;
    private static final int ATTEMPTS = 5;

    private final Downloads downloads;

    DownloadsController(Downloads downloads) {
        this.downloads = downloads;
    }

    /**
     * Records a download. When the database rolls the transaction back over a lock conflict
     * (a deadlock or lock-wait timeout: {@link ContentionException} from the count,
     * {@link PessimisticLockingFailureException} from the row), the whole transaction is
     * tried again — the row and the count went with it, so nothing is counted twice.
     */
    @PostMapping("/repositories/{id}/downloads")
    @ResponseStatus(HttpStatus.CREATED)
    Map<String, Long> download(@PathVariable("id") long id) {
        for (int attempt = 1; ; attempt++) {
            try {
                downloads.record(id);
                break;
            } catch (ContentionException | PessimisticLockingFailureException e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
            }
        }
        return Map.of("repository", id, "downloads", downloads.count(id));
    }

    @GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
    String mostDownloaded() {
        List<Downloads.Repository> top = downloads.top(TOP);
        StringBuilder page = new StringBuilder("<!doctype html>\n<title>Most downloaded</title>\n"
                + "<h1>Most downloaded</h1>\n<ol>\n");
        for (Downloads.Repository repository : top) {
            page.append("  <li data-id=\"").append(repository.id()).append("\">")
                    .append(HtmlUtils.htmlEscape(repository.name())).append(": ")
                    .append(repository.downloads()).append("</li>\n");
        }
        return page.append("</ol>\n").toString();
    }

    @ExceptionHandler(Downloads.UnknownRepositoryException.class)
    @ResponseStatus(HttpStatus.NOT_FOUND)
    Map<String, String> unknown(Downloads.UnknownRepositoryException e) {
        return Map.of("error", e.getMessage());
    }
}
