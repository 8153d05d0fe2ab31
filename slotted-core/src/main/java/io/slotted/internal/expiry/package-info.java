/**
 * Counters that expire: the expiry table's lock that every write of an expiring type takes, the
 * clearing of a counter whose time has passed, and the sweep that removes what expired counters
 * left behind.
 */
package io.slotted.internal.expiry;
