/**
 * The bodies of the HTTP service's responses: the JSON bodies, one record each, serialized by
 * Jackson with the fields in the order the records declare them, and the OpenAPI document that
 * describes them ({@link io.slotted.server.http.response.OpenApiDocument}); and how every answer is
 * written as JSON ({@link io.slotted.server.http.response.JsonResponse}). A {@code type} field
 * holds what the request used: a configured name (a JSON string) or the {@code record_type} number
 * (a JSON number).
 */
package io.slotted.server.http.response;
