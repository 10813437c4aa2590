/**
 * The transport of Apache RocketMQ's classic HA protocol, which moves a master's commit log to its slaves outside
 * the remoting frames: a slave reports, as 8 bytes, the offset its commit log ends at; the master streams what
 * follows as frames of a 12-byte header (offset, 8 bytes; length, 4 bytes) and that many bytes, an empty frame being
 * a heartbeat. What the bytes mean, and when a send counts as replicated, is the broker's business.
 */
package dev.ferry.remoting.ha;
