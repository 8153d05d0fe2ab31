/**
 * The commands of the owning row's lifecycle: {@code adopt}, {@code release}, {@code rollup},
 * {@code recount} and {@code shrink}, on the option groups of {@link io.slotted.server.cli}.
 */
package io.slotted.server.cli.owner;
