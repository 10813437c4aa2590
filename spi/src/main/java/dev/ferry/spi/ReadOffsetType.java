package dev.ferry.spi;

/** Where {@link OffsetStore#read} looks for a queue's committed offset. */
public enum ReadOffsetType {
    /** Only the store's in-memory table; {@link OffsetStore#NO_OFFSET} when absent. */
    READ_FROM_MEMORY,
    /** The backing store (broker or file), refreshing the in-memory table with what it finds. */
    READ_FROM_STORE,
    /** The in-memory table, falling back to the backing store when the queue is absent there. */
    MEMORY_FIRST_THEN_STORE
}
