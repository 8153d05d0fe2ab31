/**
 * How the commands that walk a whole table show their progress: a bar with rate and ETA on a
 * terminal ({@code me.tongfei:progressbar}), plain lines every few seconds when the output is not
 * one, and {@code Ctrl-C} turned into a request to stop at the next point where nothing is left
 * half done.
 */
package io.slotted.server.cli.progress;
