package dev.ferry.server.replica;

import dev.ferry.format.StoredEntries;
import dev.ferry.format.StoredMessageCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the bytes a master streams (cut anywhere: Apache's master sends 32 KiB at a time) back into whole commit-log
 * entries for the slave's store. It keeps at most one partial entry, checks that each frame continues the stream,
 * and passes a segment's blank marker alone, skipping the rest of the segment, so a blank stretch costs no memory.
 * Not thread-safe: one replication connection's appending thread owns it.
 */
final class EntryAssembler {
    /** Whole entries at the offset of their first byte, ready for the store. */
    record Entries(long offset, ByteBuffer bytes) {
    }

    private final int maxEntrySize;
    private long streamOffset = -1;
    /** Unconsumed bytes, starting at {@link #bufferOffset}. */
    private ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    private long bufferOffset;
    /** Bytes of a blank stretch still to come and be dropped. */
    private long skip;

    EntryAssembler(int maxEntrySize) {
        this.maxEntrySize = maxEntrySize;
    }

    /** Where the next frame must start, or -1 before the first. */
    long streamOffset() {
        return streamOffset;
    }

    /**
     * Takes one frame's bytes, sent for {@code offset}; returns the entries it completes.
     *
     * @throws IllegalStateException when the frame does not continue the stream or holds no valid entry layout
     */
    List<Entries> accept(long offset, ByteBuffer data) {
        if (streamOffset < 0) {
            streamOffset = offset;
            bufferOffset = offset;
        } else if (offset != streamOffset) {
            throw new IllegalStateException("the master sent bytes for offset " + offset + " where " + streamOffset
                    + " was expected");
        }
        streamOffset += data.remaining();
        List<Entries> out = new ArrayList<>();
        if (skip > 0) {
            int dropped = (int) Math.min(skip, data.remaining());
            data.position(data.position() + dropped);
            skip -= dropped;
            bufferOffset += dropped;
        }
        if (!data.hasRemaining()) {
            return out;
        }
        append(data);
        buffer.flip();
        int[] start = {0};
        int at;
        try {
            at = StoredEntries.split(buffer, 0, buffer.limit(), maxEntrySize, bufferOffset, (position, size, blank) -> {
                if (blank) {
                    out.add(copy(start[0], position + StoredMessageCodec.BLANK_MARKER_SIZE));
                    int dropped = Math.min(size, buffer.limit() - position);
                    skip = size - dropped;
                    start[0] = position + dropped;
                }
            });
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage() + ": not a commit-log stream", e);
        }
        if (at > start[0]) {
            out.add(copy(start[0], at));
        }
        buffer.position(at);
        bufferOffset += at;
        buffer.compact();
        return out;
    }

    private Entries copy(int from, int to) {
        ByteBuffer bytes = ByteBuffer.allocate(to - from);
        bytes.put(0, buffer, from, to - from);
        return new Entries(bufferOffset + from, bytes);
    }

    private void append(ByteBuffer data) {
        if (buffer.remaining() < data.remaining()) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(buffer.capacity() * 2, buffer.position()
                    + data.remaining()));
            buffer.flip();
            larger.put(buffer);
            buffer = larger;
        }
        buffer.put(data);
    }
}
