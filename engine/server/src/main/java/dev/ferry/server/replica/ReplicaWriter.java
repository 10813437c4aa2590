package dev.ferry.server.replica;

import dev.ferry.remoting.ha.HaFrameSink;
import java.nio.ByteBuffer;

/**
 * A slave's commit log as its HA connection fills it: each connection's stream goes through an
 * {@link EntryAssembler} and whole entries into the store, which checks every one before it writes any.
 */
public final class ReplicaWriter implements HaFrameSink {
    /** The slave's commit log. */
    public interface Log {
        long endOffset();

        /**
         * Appends whole entries at {@code offset}; returns the new end.
         *
         * @throws IllegalArgumentException when they do not continue the log
         */
        long append(long offset, ByteBuffer entries);

        /** The largest message entry the stream may hold (a blank stretch is never held). */
        int maxEntrySize();
    }

    private final Log log;
    private EntryAssembler assembler;
    /** Set when a frame could not be taken: later frames of that connection are refused until the next. */
    private boolean failed;

    public ReplicaWriter(Log log) {
        this.log = log;
        this.assembler = new EntryAssembler(log.maxEntrySize());
    }

    @Override
    public long endOffset() {
        return log.endOffset();
    }

    @Override
    public void connected() {
        assembler = new EntryAssembler(log.maxEntrySize());
        failed = false;
    }

    @Override
    public long accept(long offset, ByteBuffer data) {
        if (failed) {
            throw new IllegalStateException("an earlier frame of this connection could not be taken");
        }
        try {
            long end = log.endOffset();
            for (EntryAssembler.Entries entries : assembler.accept(offset, data)) {
                end = log.append(entries.offset(), entries.bytes());
            }
            return end;
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }
}
