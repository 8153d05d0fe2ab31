package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.server.auth.Scope;
import io.slotted.server.doctor.Doctor;
import io.slotted.server.doctor.DoctorSettings;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.store.DatabaseFailure;
import io.slotted.server.store.PooledCounters;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * {@code GET /v1/doctor[?watch=5s]} (admin): the report of {@code slotted doctor --json} for the
 * service's database and counter table.
 *
 * <p>A run samples lock waits for its window on a connection from the service's pool and a thread
 * of its own, so it holds neither a request thread nor a counter worker. One runs at a time: a
 * second request meanwhile answers 503 {@code overloaded}. The window is at most
 * {@value #MAX_WATCH_SECONDS} s (default {@value #DEFAULT_WATCH_SECONDS} s).
 */
final class DoctorRoutes implements AutoCloseable {
    static final int DEFAULT_WATCH_SECONDS = 5;
    static final int MAX_WATCH_SECONDS = 60;

    private final PooledCounters store;
    private final BearerAuth auth;
    private final Semaphore oneAtATime = new Semaphore(1);
    private final ExecutorService runner = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "slotted-doctor");
        thread.setDaemon(true);
        return thread;
    });

    DoctorRoutes(PooledCounters store, BearerAuth auth) {
        this.store = store;
        this.auth = auth;
    }

    void register(RoutesConfig routes) {
        HttpFrontEnd.getAndHead(routes, "/v1/doctor", this::doctor);
    }

    private void doctor(Context ctx) {
        auth.require(ctx, Scope.ADMIN);
        DoctorSettings settings = DoctorSettings.watching(watch(ctx.queryParam("watch")), "")
                .withTable(store.counters().config().table());
        if (!oneAtATime.tryAcquire()) {
            throw new HttpError(ErrorCode.OVERLOADED, "a doctor run is in progress: ask again when it"
                    + " has answered");
        }
        CompletableFuture<String> report;
        try {
            report = CompletableFuture.supplyAsync(() -> examine(settings), runner);
        } catch (RuntimeException e) {
            oneAtATime.release();
            throw e;
        }
        report.whenComplete((json, failure) -> oneAtATime.release());
        ctx.future(() -> report.thenAccept(json -> ctx.contentType(JsonResponse.CONTENT_TYPE).result(json)));
    }

    private String examine(DoctorSettings settings) {
        try {
            return new Doctor(store.pool(), settings, Clock.systemUTC()).examine().toJson();
        } catch (DatabaseFailure e) {
            throw new HttpError(ErrorCode.DATABASE_UNAVAILABLE, e.getMessage(), e);
        }
    }

    private static Duration watch(String text) {
        if (text == null || text.isBlank()) {
            return Duration.ofSeconds(DEFAULT_WATCH_SECONDS);
        }
        if (text.matches("\\d{1,2}s")) {
            int seconds = Integer.parseInt(text.substring(0, text.length() - 1));
            if (seconds <= MAX_WATCH_SECONDS) {
                return Duration.ofSeconds(seconds);
            }
        }
        throw new HttpError(ErrorCode.BAD_REQUEST, "watch must be whole seconds from 0s to "
                + MAX_WATCH_SECONDS + "s, such as ?watch=5s");
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
