package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.server.auth.Scope;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.live.LiveSampler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;

/**
 * The live page: {@code GET /} and the files it loads from {@code /page/}, open to anyone since
 * they hold no data, and {@code GET /v1/live} (read), the JSON the page polls every second.
 *
 * <p>The page polls rather than listening to Server-Sent Events because a browser's
 * {@code EventSource} cannot send an {@code Authorization} header: the token would have to travel
 * in the URL, where proxies and histories keep it, or in a cookie, which would open the API to
 * cross-site requests. A poll is one small GET a second, answered from the sampler's last report
 * without touching the database, and it passes every proxy.
 *
 * <p>Every file is read from the jar once, at start, into memory: nothing is fetched from a CDN, so
 * the page works on a service with no way out, and a request can name only the files listed
 * here. The page's own security policy lets it load scripts, styles and data from the service
 * alone, which keeps a token held in the browser's session storage out of any other origin's reach.
 */
final class LiveRoutes {
    /** Where uPlot's WebJar keeps the files, under the version its own properties name. */
    private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + webJarVersion() + "/dist/";
    private static final String PAGE = "/io/slotted/server/page/";
    /** Scripts, styles and data from the service only; nothing may frame the page. */
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none';"
            + " form-action 'self'";

    private final LiveSampler sampler;
    private final BearerAuth auth;
    private final byte[] index = read(PAGE + "index.html");
    private final Map<String, PageFile> files = Map.of(
            "live.js", new PageFile(read(PAGE + "live.js"), "text/javascript; charset=utf-8"),
            "live.css", new PageFile(read(PAGE + "live.css"), "text/css; charset=utf-8"),
            "uplot.js", new PageFile(read(UPLOT + "uPlot.iife.min.js"), "text/javascript; charset=utf-8"),
            "uplot.css", new PageFile(read(UPLOT + "uPlot.min.css"), "text/css; charset=utf-8"));

    /** One file of the page, and its media type. */
    private record PageFile(byte[] bytes, String contentType) {
    }

    LiveRoutes(LiveSampler sampler, BearerAuth auth) {
        this.sampler = sampler;
        this.auth = auth;
    }

    void register(RoutesConfig routes) {
        HttpFrontEnd.getAndHead(routes, "/", this::index);
        HttpFrontEnd.getAndHead(routes, "/page/{file}", this::file);
        HttpFrontEnd.getAndHead(routes, "/v1/live", this::live);
    }

    private void index(Context ctx) {
        serve(ctx, new PageFile(index, "text/html; charset=utf-8"));
    }

    private void file(Context ctx) {
        PageFile file = files.get(ctx.pathParam("file"));
        if (file == null) {
            throw new HttpError(ErrorCode.NOT_FOUND, "the page has no file '" + ctx.pathParam("file")
                    + "'; it loads " + String.join(", ", files.keySet().stream().sorted().toList()));
        }
        serve(ctx, file);
    }

    private static void serve(Context ctx, PageFile file) {
        ctx.header("Content-Security-Policy", POLICY);
        ctx.header("X-Content-Type-Options", "nosniff");
        // The files change with the jar: a browser asks again rather than keep an old page.
        ctx.header("Cache-Control", "no-cache");
        ctx.contentType(file.contentType()).result(file.bytes());
    }

    private void live(Context ctx) {
        auth.require(ctx, Scope.READ);
        ctx.header("Cache-Control", "no-store");
        JsonResponse.ok(ctx, sampler.report());
    }

    private static String webJarVersion() {
        Properties properties = new Properties();
        try (InputStream in = LiveRoutes.class.getResourceAsStream(
                "/META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            if (in == null) {
                throw new IllegalStateException("uPlot's WebJar is missing from the jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    private static byte[] read(String resource) {
        try (InputStream in = LiveRoutes.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
