package dev.ferry.store;

/** How a {@link SegmentedFile}'s segments take their writes; readers always read the mapping. */
enum SegmentWrites {
    /**
     * Absolute puts into the mapping of a sparse file; forces go through the mapping. Cheapest per write: what async
     * flush wants, where forces are rare.
     */
    MAPPED,
    /**
     * Positional writes through the file channel into segments zero-filled ahead of time, forced through the channel.
     * Every append under sync flush waits for a force, and a force of pages dirtied this way, in blocks already
     * allocated, costs a fraction of one of pages dirtied through the mapping or of a sparse file's fresh blocks
     * (the file system then has to allocate and journal them first).
     */
    CHANNEL
}
