package dev.ferry.server.replica;

/** What became of a SYNC_MASTER's wait for its slaves. */
public enum ReplicaOutcome {
    /** A slave has the bytes. */
    REPLICATED,
    /** No slave is connected, or the nearest is too far behind to wait for (Apache's SLAVE_NOT_AVAILABLE). */
    SLAVE_NOT_AVAILABLE,
    /** No slave reported the bytes in time (Apache's FLUSH_SLAVE_TIMEOUT). */
    TIMED_OUT
}
