/**
 * The HTTP front end's errors as one closed set: {@link io.slotted.server.http.error.ErrorCode}
 * (every code with its status, the only place either appears) and
 * {@link io.slotted.server.http.error.HttpError}, the failure that carries one, with its body
 * ({@link io.slotted.server.http.error.ErrorResponse}); and the header
 * fields a refusal by a quota adds ({@link io.slotted.server.http.error.QuotaHeaders}).
 */
package io.slotted.server.http.error;
