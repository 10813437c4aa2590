package dev.ferry.remoting.ha;

import java.nio.ByteBuffer;

/** Where a slave's HA connection hands what the master streams; called on one appending thread, in order. */
public interface HaFrameSink {
    /** Where the slave's commit log ends: what it reports to its master. */
    long endOffset();

    /** A connection to the master begins: what a previous one left unfinished is void. */
    void connected();

    /**
     * Takes one frame's bytes, sent for {@code offset} (none in a heartbeat); returns where the commit log ends now.
     *
     * @throws RuntimeException when they do not continue the stream: the connection is closed and started again
     */
    long accept(long offset, ByteBuffer data);
}
