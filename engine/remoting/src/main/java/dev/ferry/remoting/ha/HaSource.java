package dev.ferry.remoting.ha;

import java.nio.ByteBuffer;
import java.util.Optional;

/** The master's commit log as replication reads it. */
public interface HaSource {
    /** Where the commit log starts on disk. */
    long minOffset();

    /** Where what {@link #read} can return ends now. */
    long endOffset();

    /**
     * Up to {@code maxBytes} written bytes from {@code offset} within one segment; empty when nothing is written
     * there yet.
     *
     * @throws IllegalArgumentException when {@code offset} is no longer on disk
     */
    Optional<ByteBuffer> read(long offset, int maxBytes);
}
