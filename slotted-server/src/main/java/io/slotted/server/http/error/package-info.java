/**
 * The HTTP front end's errors as one closed set: {@link io.slotted.server.http.error.ErrorCode}
 * (every code with its status, the only place either appears) and
 * {@link io.slotted.server.http.error.HttpError}, the failure that carries one.
 */
package io.slotted.server.http.error;
