/**
 * The Redis protocol's commands: each checked (name, arguments, token) and run against the
 * counters, alone or queued in a {@code MULTI}, and answered as {@code docs/api.md}, "The Redis
 * protocol", words it. Knows nothing of connections or of Netty's channels; the front end in
 * {@code io.slotted.server.resp} hands it each command's words and writes its answers.
 */
package io.slotted.server.resp.command;
