/**
 * The HTTP front end on Javalin (Jetty 12): {@link io.slotted.server.http.HttpFrontEnd} wires the
 * counter routes, the health routes, request metrics, bearer-token checks and the mapping of every
 * failure to the contract's JSON error, whose codes and statuses {@code ErrorCode} holds in one
 * place, within the bounds of {@link io.slotted.server.http.HttpSettings}. Counter work runs on
 * bounded workers within a deadline ({@code CounterWork}); readiness is probed in the background
 * ({@code ReadinessProbe}, in {@code http.health}). Request bodies are read by {@code http.body}; the response bodies are
 * the records of {@code http.response}, which writes them ({@code JsonResponse}).
 *
 * <p>It uses {@code config}, {@code store}, {@code auth} and {@code metrics}, and none of them
 * knows it.
 */
package io.slotted.server.http;
