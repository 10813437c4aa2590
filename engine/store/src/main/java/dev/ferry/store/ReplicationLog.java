package dev.ferry.store;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The commit log as replication sees it: raw bytes read for slaves on a master, and appended as they came on a slave.
 * Implemented by {@link MessageStore}.
 */
public interface ReplicationLog {
    /**
     * Appends what a master replicated (whole stored entries at their master offsets); under sync flush returns once
     * they are durable. Returns the commit log's new end, which is what a slave reports to its master.
     *
     * @throws IllegalArgumentException when the bytes do not continue this commit log as whole, intact entries
     * @throws IllegalStateException    when the store is closed or stopped by a failed write
     */
    long appendReplicated(long offset, ByteBuffer entries);

    /**
     * Up to {@code maxBytes} written commit-log bytes from {@code offset}, within one segment, for a slave; empty
     * when nothing is written there yet.
     *
     * @throws IllegalArgumentException when {@code offset} is no longer on disk
     */
    Optional<ByteBuffer> replicaChunk(long offset, int maxBytes);

    /** Where what {@link #replicaChunk} can read ends: under sync flush it may be behind the written end. */
    long replicableEndOffset();

    /** Smallest commit-log offset still on disk. */
    long commitLogMinOffset();

    /** One past the last written commit-log byte. */
    long commitLogEndOffset();

    /** The largest entry this log may hold: the largest body, with room for its properties, topic and fixed fields. */
    int maxEntrySize();
}
