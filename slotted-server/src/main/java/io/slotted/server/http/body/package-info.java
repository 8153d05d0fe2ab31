/**
 * Request bodies, for the HTTP front end: what a request says about its body
 * ({@link io.slotted.server.http.body.MessageFraming}), reading it as it arrives without holding a
 * thread, within a deadline and a memory budget
 * ({@link io.slotted.server.http.body.RequestBodies}), and parsing it strictly as a stream of JSON
 * tokens ({@link io.slotted.server.http.body.JsonBody},
 * {@link io.slotted.server.http.body.BatchRequest}, {@link io.slotted.server.http.body.SetRequest}).
 * Every refusal is an {@link io.slotted.server.http.error.HttpError} naming what to fix.
 */
package io.slotted.server.http.body;
