package io.slotted.server.http.response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * The OpenAPI 3.1 description of the HTTP API, as {@code GET /openapi.json} serves it: the file
 * {@code /openapi.json} on the classpath ({@code src/main/resources/openapi.json}), read once when
 * the front end is made and served as it is.
 *
 * <p>The document is written by hand, next to the routes it describes, rather than generated from
 * them: it says what no route registration knows — every status an operation can answer, the codes
 * each status can carry, the shapes of the bodies. {@code OpenApiContractTest} keeps the two
 * together: the routes Javalin serves are exactly the documented operations, and every documented
 * status is produced by a real request whose body fits the documented schema.
 */
public final class OpenApiDocument {
    /** Where the document is on the classpath. */
    public static final String RESOURCE = "/openapi.json";

    private final byte[] json;

    private OpenApiDocument(byte[] json) {
        this.json = json;
    }

    /**
     * Reads the document from the classpath; once, at start-up, so that a jar built without it fails
     * to start rather than answering 500 later.
     *
     * @return the document
     * @throws IllegalStateException if the document is not on the classpath
     * @throws UncheckedIOException if it cannot be read
     */
    public static OpenApiDocument load() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the OpenAPI document " + RESOURCE + " is not on the"
                        + " classpath: the jar was built without src/main/resources");
            }
            return new OpenApiDocument(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the OpenAPI document " + RESOURCE, e);
        }
    }

    /**
     * The document.
     *
     * @return its JSON, UTF-8; a copy, since the document is shared by every request
     */
    public byte[] bytes() {
        return json.clone();
    }
}
