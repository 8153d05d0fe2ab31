/**
 * The runnable Slotted product: the HTTP service of the contract in {@code docs/api.md} and the
 * {@code slotted} command line ({@link io.slotted.server.cli.Main}).
 *
 * <p>The packages, each layer knowing only the ones below it:
 * <ul>
 *   <li>{@code config}: settings, checked when made; imports no other server package;</li>
 *   <li>{@code auth}, {@code metrics}, {@code store}: tokens and access checks, the meters, the
 *       counters on a pooled database; each may use {@code config} only;</li>
 *   <li>{@code http}: the HTTP front end (later {@code resp}, the Redis protocol, beside it);</li>
 *   <li>this package: {@link io.slotted.server.SlottedServer}, which starts the front ends on one
 *       store and stops them gracefully;</li>
 *   <li>{@code cli}: the commands, the only place that knows flags and exit statuses.</li>
 * </ul>
 */
package io.slotted.server;
