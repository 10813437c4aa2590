/**
 * What replication means to a broker, over the transport of {@code dev.ferry.remoting.ha}: a slave rebuilds whole
 * commit-log entries from the master's stream ({@link dev.ferry.server.replica.EntryAssembler},
 * {@link dev.ferry.server.replica.ReplicaWriter}); a SYNC_MASTER answers a send once a slave reported past it
 * ({@link dev.ferry.server.replica.ReplicaAcks}).
 */
package dev.ferry.server.replica;
