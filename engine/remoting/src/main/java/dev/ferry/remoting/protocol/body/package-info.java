/**
 * JSON bodies of the remoting protocol, as records, with the codec that reads and writes
 * them compatibly with Apache RocketMQ's peers.
 */
package dev.ferry.remoting.protocol.body;
