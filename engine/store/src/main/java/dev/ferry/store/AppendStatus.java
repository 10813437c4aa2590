package dev.ferry.store;

/** Outcome of {@link MessageStore#append}. Only {@link #PUT_OK} means the message is stored as asked. */
public enum AppendStatus {
    /** Stored; under {@link FlushMode#SYNC_FLUSH} also durable. */
    PUT_OK,
    /** Stored and readable, but the group commit did not confirm durability within the sync flush timeout. */
    FLUSH_DISK_TIMEOUT,
    /** The message breaks a format rule (topic empty or too long, bad host, negative queue id); nothing written. */
    MESSAGE_ILLEGAL,
    /** The body is larger than the configured maximum; nothing written. */
    MESSAGE_TOO_LARGE,
    /** The encoded properties exceed {@link Short#MAX_VALUE} bytes; nothing written. */
    PROPERTIES_TOO_LARGE,
    /** The disk is (nearly) full; nothing written. */
    DISK_FULL,
    /** The store is closed or failed to write; nothing written. */
    SERVICE_NOT_AVAILABLE
}
