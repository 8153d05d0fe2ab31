/**
 * The time bucket options and commands: {@code --buckets}, which {@code serve} and {@code incr}
 * take too, and the reads {@code series} and {@code top}, on the option groups of
 * {@link io.slotted.server.cli}.
 */
package io.slotted.server.cli.bucket;
