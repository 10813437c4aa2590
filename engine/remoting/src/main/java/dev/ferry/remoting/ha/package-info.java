/**
 * The HA stream, which moves a master's commit log to its slaves outside the remoting frames. A Ferry master first
 * greets each connection ({@link dev.ferry.remoting.ha.HaGreeting}: a nonce, and whether credentials are required);
 * the connection must answer within a deadline with a hello naming the master's broker name and a slave's id, signed
 * with the broker's credentials when the master has them ({@link dev.ferry.remoting.ha.HaHello}), and only then is it
 * a slave. From there it is Apache RocketMQ's classic HA protocol: the slave reports, as 8 bytes, the offset its
 * commit log ends at; the master streams what follows as frames of a 12-byte header (offset, 8 bytes; length, 4
 * bytes) and that many bytes, an empty frame being a heartbeat. A Ferry slave follows an Apache master too, which
 * greets nobody, by starting the classic protocol when no greeting comes. What the bytes mean, and when a send counts
 * as replicated, is the broker's business.
 */
package dev.ferry.remoting.ha;
