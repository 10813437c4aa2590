package dev.ferry.store;

/** When an append counts as done with respect to the disk. */
public enum FlushMode {
    /** The append returns once its bytes are in the page cache; a background service forces them periodically. */
    ASYNC_FLUSH,
    /** The append returns only after its bytes are forced to disk; concurrent appends share one force (group commit). */
    SYNC_FLUSH
}
