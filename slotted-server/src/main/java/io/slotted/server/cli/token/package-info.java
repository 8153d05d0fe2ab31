/**
 * The token commands: {@code slotted token create}, which makes a token and keeps only its hash
 * in the token file, and {@code slotted token hash}, which converts a file's plain tokens to
 * hashes. The file's format and its checks belong to {@link io.slotted.server.auth}; these
 * commands only read flags and print.
 */
package io.slotted.server.cli.token;
