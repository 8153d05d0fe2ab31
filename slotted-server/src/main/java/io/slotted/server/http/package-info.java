/**
 * The HTTP front end on Javalin (Jetty 12): {@link io.slotted.server.http.HttpFrontEnd} wires the
 * counter routes, the health routes, request metrics, bearer-token checks and the mapping of every
 * failure to the contract's JSON error, whose codes and statuses {@code ErrorCode} holds in one
 * place. The response bodies are the records of {@code http.response}.
 *
 * <p>It uses {@code config}, {@code store}, {@code auth} and {@code metrics}, and none of them
 * knows it.
 */
package io.slotted.server.http;
