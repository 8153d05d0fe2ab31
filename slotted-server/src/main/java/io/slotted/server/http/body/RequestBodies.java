package io.slotted.server.http.body;

import io.javalin.http.Context;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Reads request bodies without holding a thread while they arrive, each within a deadline, all of
 * them within one memory budget.
 *
 * <p>A client may send its body as slowly as it likes. Read the blocking way, every slow body
 * would hold one of Jetty's threads until it was complete, and a few hundred clients sending a
 * byte a second would leave none for {@code /healthz}. So a body is read with the Servlet API's
 * non-blocking input: Jetty calls {@link ReadListener#onDataAvailable()} when bytes have come, the
 * bytes there are taken, and the thread goes back. The whole body must arrive within the body
 * deadline; a body still arriving then is answered 408 {@code body_timeout} and its connection is
 * closed.
 *
 * <p>A body waits in memory until it is complete, and two thousand connections could each send a
 * megabyte. So the bytes of every body being read, or read and still being worked on, count
 * against one budget; a request whose body would overdraw it is answered 503 {@code overloaded}
 * at once. A body over {@value JsonBody#MAX_BYTES} bytes is read and thrown away up to
 * {@value #DRAIN_BYTES} bytes before the 413, so that a client that sent no {@code Expect:
 * 100-continue} reads the 413 rather than a reset connection; past that, or when the client waits
 * for {@code 100 Continue}, the 413 goes at once.
 */
public final class RequestBodies {
    /** How much of a body that is too large is read and discarded before answering 413. */
    public static final long DRAIN_BYTES = 4 * JsonBody.MAX_BYTES;
    private static final int CHUNK_BYTES = 8192;

    private final Duration deadline;
    private final long budget;
    private final Executor responses;
    private final AtomicLong held = new AtomicLong();

    /**
     * Creates the reader.
     *
     * @param settings the body deadline and the budget for bodies in memory
     * @param responses where a missed deadline is answered: Jetty's thread pool
     */
    public RequestBodies(HttpSettings settings, Executor responses) {
        this.deadline = settings.bodyDeadline();
        this.budget = settings.bodyBytes();
        this.responses = responses;
    }

    /**
     * Reads the request's body, then hands it on; the body's bytes stay counted against the budget
     * until the work on them is done. Call it from the supplier given to {@code ctx.future}, where
     * the request is asynchronous.
     *
     * @param ctx the request
     * @param then the work on the body: empty when the request has none
     * @param <T> what the work makes
     * @return the work's result, or an {@link HttpError} if the body was too large, too slow, did
     *     not fit the budget or could not be read
     */
    public <T> CompletableFuture<T> read(Context ctx, Function<byte[], CompletableFuture<T>> then) {
        if (!MessageFraming.hasBody(ctx)) {
            return then.apply(new byte[0]);
        }
        long declared = ctx.req().getContentLengthLong();
        boolean waitsForContinue = "100-continue".equalsIgnoreCase(ctx.header("Expect"));
        if (declared > JsonBody.MAX_BYTES && (waitsForContinue || declared > DRAIN_BYTES)) {
            return CompletableFuture.failedFuture(JsonBody.tooLarge());
        }
        Reading reading;
        try {
            reading = new Reading(ctx.req().getInputStream(), declared);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(unreadable(e));
        }
        return reading.done.orTimeout(deadline.toNanos(), TimeUnit.NANOSECONDS)
                .exceptionallyAsync(failure -> {
                    throw new CompletionException(late(failure));
                }, responses)
                .thenCompose(then)
                .whenComplete((result, failure) -> reading.release());
    }

    private Throwable late(Throwable failure) {
        Throwable cause = HttpError.unwrap(failure);
        if (!(cause instanceof TimeoutException)) {
            return cause;
        }
        return new HttpError(ErrorCode.BODY_TIMEOUT, "the body did not arrive within "
                + deadline.toMillis() + "ms: send the whole body at once, promptly");
    }

    private static HttpError unreadable(Throwable e) {
        return new HttpError(ErrorCode.UNREADABLE_BODY, "the body could not be read: "
                + e.getMessage());
    }

    /** One body being read, as Jetty calls back with its bytes. */
    private final class Reading implements ReadListener {
        private final ServletInputStream in;
        private final ByteArrayOutputStream kept;
        private final byte[] chunk = new byte[CHUNK_BYTES];
        private final CompletableFuture<byte[]> done = new CompletableFuture<>();
        private long total;
        private long reserved;
        private boolean released;

        Reading(ServletInputStream in, long declared) {
            this.in = in;
            this.kept = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 0), CHUNK_BYTES));
            in.setReadListener(this);
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (!done.isDone() && in.isReady()) {
                int n = in.read(chunk);
                if (n < 0) {
                    return;
                }
                take(n);
            }
        }

        /** Keeps the bytes just read, or discards them past the size limit, or gives up. */
        private synchronized void take(int n) {
            total += n;
            if (total > DRAIN_BYTES) {
                done.completeExceptionally(JsonBody.tooLarge());
            } else if (total <= JsonBody.MAX_BYTES) {
                if (released || !reserve(n)) {
                    done.completeExceptionally(new HttpError(ErrorCode.OVERLOADED, "request bodies"
                            + " already fill the memory set aside for them (" + budget + " bytes),"
                            + " so nothing was applied: retry later"));
                    return;
                }
                kept.write(chunk, 0, n);
            }
        }

        private boolean reserve(long n) {
            if (held.addAndGet(n) > budget) {
                held.addAndGet(-n);
                return false;
            }
            reserved += n;
            return true;
        }

        @Override
        public synchronized void onAllDataRead() {
            if (total > JsonBody.MAX_BYTES) {
                done.completeExceptionally(JsonBody.tooLarge());
            } else {
                done.complete(kept.toByteArray());
            }
        }

        @Override
        public void onError(Throwable failure) {
            done.completeExceptionally(unreadable(failure));
        }

        /** Gives the body's bytes back to the budget, once. */
        synchronized void release() {
            if (!released) {
                released = true;
                held.addAndGet(-reserved);
            }
        }
    }
}
