/**
 * How clients' type names and string ids become the numbers the counter table stores, for every
 * front end alike.
 */
package io.slotted.server.names;
