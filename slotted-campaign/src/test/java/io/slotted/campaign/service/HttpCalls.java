package io.slotted.campaign.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slotted.campaign.history.Counter;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * The campaign's HTTP requests to a service process, as docs/api.md gives them: an increment with
 * or without an {@code Idempotency-Key}, a batch of increments all or nothing, a set, a read. Each returns
 * the answer's JSON on a 2xx, and throws {@link HttpErrorAnswer} on any other status, or what the
 * HTTP client threw. A client waits for an answer as long as
 * {@link ServiceProcess#patience()}.
 */
final class HttpCalls {
    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpCalls() {
    }

    /**
     * {@code POST /v1/counters/{type}/{id}/increment}, with the key when it is not null.
     *
     * @return the answer, {@code {"replayed": …}} among its fields
     */
    static JsonNode increment(ServiceProcess service, Counter counter, long delta, String key)
            throws IOException, InterruptedException, HttpErrorAnswer {
        ObjectNode body = JSON.createObjectNode().put("delta", delta);
        HttpRequest.Builder request = post(service, ServiceTypes.httpPath(counter) + "/increment", body);
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return send(service, request);
    }

    /** {@code POST /v1/increments}: every increment applied, or none. */
    static JsonNode batch(ServiceProcess service, Map<Counter, Long> deltas)
            throws IOException, InterruptedException, HttpErrorAnswer {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode increments = body.putArray("increments");
        deltas.forEach((counter, delta) -> increments.addObject().put("type", ServiceTypes.typeName(counter))
                .put("id", counter.id()).put("delta", delta));
        return send(service, post(service, "/v1/increments", body));
    }

    /** {@code PUT /v1/counters/{type}/{id}}: the counter set to exactly {@code count}. */
    static JsonNode set(ServiceProcess service, Counter counter, long count)
            throws IOException, InterruptedException, HttpErrorAnswer {
        ObjectNode body = JSON.createObjectNode().put("count", count);
        return send(service, HttpRequest.newBuilder(service.httpBase().resolve(ServiceTypes.httpPath(counter)))
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(body.toString())));
    }

    /** {@code GET /v1/counters/{type}/{id}}: the total. */
    static long read(ServiceProcess service, Counter counter)
            throws IOException, InterruptedException, HttpErrorAnswer {
        JsonNode answer = send(service, HttpRequest.newBuilder(service.httpBase().resolve(ServiceTypes.httpPath(
                counter))).GET());
        if (!answer.path("count").isIntegralNumber()) {
            throw new IOException("a read answered 200 without a count: " + answer);
        }
        return answer.get("count").asLong();
    }

    private static HttpRequest.Builder post(ServiceProcess service, String path, JsonNode body) {
        return HttpRequest.newBuilder(service.httpBase().resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    }

    private static JsonNode send(ServiceProcess service, HttpRequest.Builder request)
            throws IOException, InterruptedException, HttpErrorAnswer {
        HttpResponse<String> response = service.http().send(request.timeout(service.patience()).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = parse(response.body());
        if (response.statusCode() / 100 != 2) {
            JsonNode error = body.path("error");
            throw new HttpErrorAnswer(response.statusCode(), error.path("code").isTextual() ? error.get("code").asText()
                    : null, error.path("message").asText(response.body()));
        }
        return body;
    }

    private static JsonNode parse(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }
}
