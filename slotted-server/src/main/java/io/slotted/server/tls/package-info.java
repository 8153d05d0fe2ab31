/**
 * TLS for every front end: the service's certificate and key, read from PEM files and read again
 * when the files change, behind one {@link javax.net.ssl.SSLContext} that HTTP (Jetty) and the
 * Redis protocol (Netty) both serve from. Nothing here knows a protocol.
 */
package io.slotted.server.tls;
