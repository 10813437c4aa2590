package dev.ferry.api;

/** How a broker stored a sent message. Anything but {@link #SEND_OK} means stored, but not as durably as asked. */
public enum SendStatus {
    /** Stored (and flushed or replicated, as the broker is configured). */
    SEND_OK,
    /** Stored, but the synchronous disk flush did not finish in time. */
    FLUSH_DISK_TIMEOUT,
    /** Stored, but the synchronous replication to the slave did not finish in time. */
    FLUSH_SLAVE_TIMEOUT,
    /** Stored, but no slave was available for synchronous replication. */
    SLAVE_NOT_AVAILABLE
}
