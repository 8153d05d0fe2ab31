/**
 * The live page's data: a sampler that reads the service's statistics once a second, keeps the
 * last minutes of rates, flush sizes and write latencies, and every few seconds — while someone
 * is watching — reads the counter types and their top counters from the database. The HTTP front
 * end serves what it holds; nothing here knows a protocol.
 */
package io.slotted.server.live;
