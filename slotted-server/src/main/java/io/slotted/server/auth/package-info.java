/**
 * Who may do what: the accepted tokens and their {@link io.slotted.server.auth.Scope scopes}, read
 * from a token file, and the {@link io.slotted.server.auth.AccessCheck check} every front end asks
 * before it acts. Nothing here knows a protocol; the front ends turn a refusal into their own
 * answer.
 */
package io.slotted.server.auth;
