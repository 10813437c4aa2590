/**
 * Typed request and response headers: records whose components travel as a command's
 * extension fields, under RocketMQ's field names.
 */
package dev.ferry.remoting.protocol.header;
