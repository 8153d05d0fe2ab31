package io.slotted.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaContext;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.AnnotationKeyword;
import com.networknt.schema.keyword.DisallowUnknownKeywordFactory;
import com.networknt.schema.keyword.Keyword;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * {@code /openapi.json} read as a contract: the operations it documents, what each may answer —
 * the statuses, the error codes a status may carry, the media types, the headers it always sends —
 * and the JSON Schema 2020-12 schemas the bodies must fit, checked by a validator.
 *
 * <p>A request that reaches no operation is held to the document's {@value #UNMATCHED} responses,
 * as if that were one more operation. Answers are named {@code "<operation> <status>"}, such as
 * {@code "GET /v1/counters/{type}/{id} 404"}, so that the answers a test produced can be compared
 * with the ones the document lists.
 */
final class OpenApiContract {
    /** The document's answers to a request that reaches no operation, and their key. */
    static final String UNMATCHED = "x-unmatched";
    /** Where the validator finds the document, so that its {@code $ref}s resolve. */
    private static final String BASE = "https://slotted.invalid/openapi.json";
    private static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";
    /** Where, in an error answer's schema, the codes it may carry are listed. */
    private static final String CODES = "/properties/error/properties/code/enum";
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "options",
            "head", "patch", "trace");
    /**
     * The fields of the document itself, which the validator sees as keywords of a schema only
     * because the document is the root of every schema in it.
     */
    private static final Set<String> DOCUMENT_FIELDS = Set.of("openapi", "jsonSchemaDialect", "info",
            "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs", UNMATCHED);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonNode document;
    private final SchemaRegistry schemas;
    private final Map<String, Operation> operations = new LinkedHashMap<>();

    /**
     * One documented operation, or the answers to requests that reach none.
     *
     * @param key {@code METHOD /path/{template}}, or {@value #UNMATCHED}
     * @param responses the JSON pointer of its responses in the document
     */
    record Operation(String key, String responses) {
    }

    private OpenApiContract(String json) throws JsonProcessingException {
        this.document = JSON.readTree(json);
        this.schemas = registry(json);
        document.path("paths").properties().forEach(path -> path.getValue().fieldNames()
                .forEachRemaining(method -> {
                    if (METHODS.contains(method)) {
                        String key = method.toUpperCase(Locale.ROOT) + " " + path.getKey();
                        operations.put(key, new Operation(key, "/paths/" + escape(path.getKey()) + "/"
                                + method + "/responses"));
                    }
                }));
    }

    /** Reads the document; a document that is not JSON fails the test that reads it. */
    static OpenApiContract parse(String json) {
        try {
            return new OpenApiContract(json);
        } catch (JsonProcessingException e) {
            throw new AssertionError("the OpenAPI document is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * A validator of JSON Schema 2020-12 that asserts formats ({@code date-time}) and refuses any
     * keyword it does not know, so that a misspelt keyword is an error rather than ignored.
     */
    private static SchemaRegistry registry(String json) {
        Dialect strict = Dialect.builder(Dialects.getDraft202012())
                .unknownKeywordFactory(OpenApiContract::documentField).build();
        return SchemaRegistry.withDefaultDialect(strict, registry -> registry
                .schemas(Map.of(BASE, json))
                .schemaRegistryConfig(SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build()));
    }

    private static Keyword documentField(String name, SchemaContext context) {
        return DOCUMENT_FIELDS.contains(name) ? new AnnotationKeyword(name)
                : DisallowUnknownKeywordFactory.getInstance().getKeyword(name, context);
    }

    /** The document's {@code openapi} field, such as {@code 3.1.0}. */
    String version() {
        return document.path("openapi").asText();
    }

    /** Every documented operation, as {@code METHOD /path/{template}}. */
    SortedSet<String> operationKeys() {
        return new TreeSet<>(operations.keySet());
    }

    /** Every answer the document lists, {@code "<operation> <status>"}, unmatched requests' included. */
    SortedSet<String> documentedAnswers() {
        SortedSet<String> answers = new TreeSet<>();
        for (Operation operation : allOperations()) {
            document.at(operation.responses()).fieldNames()
                    .forEachRemaining(status -> answers.add(operation.key() + " " + status));
        }
        return answers;
    }

    /** The status of an answer's key, {@code "<operation> <status>"}. */
    static int statusOf(String answer) {
        return Integer.parseInt(answer.substring(answer.lastIndexOf(' ') + 1));
    }

    /** The codes of {@code ErrorCode}, the schema every error's {@code code} is one of. */
    List<String> errorCodes() {
        List<String> codes = new ArrayList<>();
        document.at("/components/schemas/ErrorCode/enum").forEach(code -> codes.add(code.asText()));
        return codes;
    }

    /** For every documented error answer, {@code "<operation> <status>"}, the codes it lists. */
    Map<String, List<String>> codesByAnswer() {
        Map<String, List<String>> codes = new LinkedHashMap<>();
        for (Operation operation : allOperations()) {
            document.at(operation.responses()).fieldNames().forEachRemaining(status -> {
                JsonNode listed = document.at(schemaOf(responseOf(operation, status), "application/json")
                        + CODES);
                List<String> each = new ArrayList<>();
                listed.forEach(code -> each.add(code.asText()));
                if (!each.isEmpty()) {
                    codes.put(operation.key() + " " + status, each);
                }
            });
        }
        return codes;
    }

    private List<Operation> allOperations() {
        List<Operation> all = new ArrayList<>(operations.values());
        all.add(new Operation(UNMATCHED, "/" + UNMATCHED + "/responses"));
        return all;
    }

    /**
     * The operation a request reaches, as Javalin routes it: the path template it matches with the
     * most literal segments (so {@code /v1/counters/downloads/top} is the top-N, not a counter),
     * a trailing slash ignored; or {@value #UNMATCHED}.
     */
    Operation operationOf(String method, String target) {
        String path = target.split("\\?", 2)[0];
        if (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String best = null;
        long bestLiterals = -1;
        for (Iterator<String> templates = document.path("paths").fieldNames(); templates.hasNext(); ) {
            String template = templates.next();
            long literals = template.chars().filter(c -> c == '/').count()
                    - template.chars().filter(c -> c == '{').count();
            if (matches(template, path) && literals > bestLiterals) {
                best = template;
                bestLiterals = literals;
            }
        }
        return operations.getOrDefault(method + " " + best, new Operation(UNMATCHED,
                "/" + UNMATCHED + "/responses"));
    }

    private static boolean matches(String template, String path) {
        String regex = Pattern.quote(template).replaceAll("\\{[^}/]+}", "\\\\E[^/]+\\\\Q");
        return path.matches(regex);
    }

    /** The error code of an answer, or null when it is no error (or has no body). */
    static String errorCode(RawConnection.Response answer) {
        return parseOrNull(answer.body()).path("error").path("code").asText(null);
    }

    /** The answer's key, {@code "<operation> <status>"}, for the request it answered. */
    String answerKey(String method, String target, int status) {
        return operationOf(method, target).key() + " " + status;
    }

    /**
     * What is wrong with an answer by the document: a status it does not list for the operation, a
     * media type or a required header it does not say, an error code the status does not carry, a
     * body that does not fit the schema. A {@code HEAD}'s answer has no body to check.
     *
     * @return the problems, each naming the request; empty when the answer is documented
     */
    List<String> problems(String method, String target, RawConnection.Response answer) {
        Operation operation = operationOf(method, target);
        String where = method + " " + excerpt(target) + " (" + operation.key() + ") answered "
                + answer.status();
        String status = Integer.toString(answer.status());
        if (!document.at(operation.responses()).has(status)) {
            List<String> listed = new ArrayList<>();
            document.at(operation.responses()).fieldNames().forEachRemaining(listed::add);
            return List.of(where + ", which the document does not list; it lists " + listed);
        }
        String response = responseOf(operation, status);
        List<String> problems = new ArrayList<>();
        document.at(response + "/headers").properties().forEach(header -> {
            if (header.getValue().path("required").asBoolean() && answer.header(header.getKey()) == null) {
                problems.add(where + " without the " + header.getKey() + " header the document requires");
            }
        });
        if (!method.equals("HEAD")) {
            problems.addAll(bodyProblems(where, response, answer));
        }
        return problems;
    }

    private List<String> bodyProblems(String where, String response, RawConnection.Response answer) {
        String type = mediaType(answer.header("Content-Type"));
        String documented = null;
        for (Iterator<String> types = document.at(response + "/content").fieldNames(); types.hasNext(); ) {
            String candidate = types.next();
            if (mediaType(candidate).equals(type)) {
                documented = candidate;
            }
        }
        if (documented == null) {
            return List.of(where + " with Content-Type " + answer.header("Content-Type")
                    + ", which the document does not list");
        }
        if (!type.equals("application/json")) {
            return List.of();
        }
        List<String> problems = new ArrayList<>(validate(where, schemaOf(response, documented),
                answer.body()));
        JsonNode codes = document.at(schemaOf(response, documented) + CODES);
        String code = errorCode(answer);
        if (code != null && !contains(codes, code)) {
            problems.add(where + " with the code " + code + ", which the document does not list for it: "
                    + codes);
        }
        return problems;
    }

    /**
     * What is wrong with a request body by the operation's documented request body.
     *
     * @return the problems; empty when the body fits, or the operation documents none
     */
    List<String> requestProblems(String method, String target, String body) {
        Operation operation = operationOf(method, target);
        String schema = operation.responses().replaceAll("/responses$", "/requestBody")
                + "/content/application~1json/schema";
        if (body == null || body.isEmpty() || document.at(schema).isMissingNode()) {
            return List.of();
        }
        return validate(method + " " + excerpt(target) + " sent a body", schema, body);
    }

    private List<String> validate(String where, String schemaPointer, String json) {
        JsonNode body = parseOrNull(json);
        if (body.isMissingNode()) {
            return List.of(where + " with a body that is not JSON: " + excerpt(json));
        }
        List<Error> errors;
        try {
            errors = schemaAt(schemaPointer).validate(body);
        } catch (RuntimeException e) {
            return List.of(where + ", but its schema " + schemaPointer + " cannot be used: "
                    + e.getMessage());
        }
        List<String> problems = new ArrayList<>();
        for (Error error : errors) {
            problems.add(where + " with a body that does not fit " + schemaPointer + ": " + error
                    + " in " + excerpt(json));
        }
        return problems;
    }

    /**
     * Every schema in the document: each of {@code components/schemas}, and each {@code schema} of
     * a parameter, request body or response.
     *
     * @return their JSON pointers
     */
    List<String> schemaPointers() {
        List<String> pointers = new ArrayList<>();
        collectSchemas(document, "", pointers);
        return pointers;
    }

    private static void collectSchemas(JsonNode node, String pointer, List<String> pointers) {
        if (pointer.equals("/components/schemas")) {
            node.fieldNames().forEachRemaining(name -> pointers.add(pointer + "/" + escape(name)));
            return;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collectSchemas(node.get(i), pointer + "/" + i, pointers);
            }
        }
        node.properties().forEach(field -> {
            String child = pointer + "/" + escape(field.getKey());
            if (field.getKey().equals("schema")) {
                pointers.add(child);
            } else {
                collectSchemas(field.getValue(), child, pointers);
            }
        });
    }

    /**
     * What is wrong with one schema of the document: not valid by the 2020-12 meta-schema, a
     * keyword the validator does not know, a {@code $ref} that does not resolve.
     *
     * @return the problems; empty when the schema is sound
     */
    List<String> schemaProblems(String pointer) {
        List<String> problems = new ArrayList<>();
        for (Error error : schemas.getSchema(SchemaLocation.of(META_SCHEMA)).validate(document.at(pointer))) {
            problems.add(pointer + " is not JSON Schema 2020-12: " + error);
        }
        try {
            schemaAt(pointer).initializeValidators();
        } catch (RuntimeException e) {
            problems.add(pointer + " cannot be used: " + e.getMessage());
        }
        return problems;
    }

    private Schema schemaAt(String pointer) {
        return schemas.getSchema(SchemaLocation.of(BASE + "#" + fragment(pointer)));
    }

    /** The response object of an operation's status, past a {@code $ref} to the shared ones. */
    private String responseOf(Operation operation, String status) {
        String pointer = operation.responses() + "/" + status;
        JsonNode ref = document.at(pointer + "/$ref");
        return ref.isMissingNode() ? pointer : ref.asText().substring(1);
    }

    private static String schemaOf(String response, String mediaType) {
        return response + "/content/" + escape(mediaType) + "/schema";
    }

    private static JsonNode parseOrNull(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return JSON.missingNode();
        }
    }

    private static boolean contains(JsonNode array, String text) {
        for (JsonNode element : array) {
            if (element.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    private static String mediaType(String contentType) {
        return contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }

    /** A name as one token of a JSON pointer (RFC 6901). */
    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    /** A JSON pointer as a URI fragment: what a fragment may not hold ({@code {}}, space) escaped. */
    private static String fragment(String pointer) {
        StringBuilder fragment = new StringBuilder();
        for (byte b : pointer.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (Character.isLetterOrDigit(c) && c < 0x80 || "-._~/!$&'()*+,;=:@".indexOf(c) >= 0) {
                fragment.append(c);
            } else {
                fragment.append(String.format("%%%02X", b & 0xff));
            }
        }
        return fragment.toString();
    }

    private static String excerpt(String text) {
        return text.length() <= 120 ? text : text.substring(0, 120) + "…(" + text.length() + " chars)";
    }
}
