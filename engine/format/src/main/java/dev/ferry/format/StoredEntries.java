package dev.ferry.format;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The one walk over stored entries laid back to back, each led by its total size: a pull or query answer, a
 * replicated stretch of a commit log, a stream of one cut anywhere. It reads the size and magic code of each piece
 * and nothing more; what a piece holds is {@link StoredMessageCodec}'s to check.
 *
 * <p>A piece is either an entry or a segment's end-of-segment marker, whose size covers the rest of its segment
 * although only its {@value StoredMessageCodec#BLANK_MARKER_SIZE} bytes mean anything: the walk steps over as much of
 * that stretch as the bytes given hold.
 */
public final class StoredEntries {
    private StoredEntries() {
    }

    /** Told of each whole piece, in order. */
    @FunctionalInterface
    public interface Visitor {
        /**
         * @param position where the piece starts in the bytes walked
         * @param size     the size it declares; for a blank marker the rest of its segment, which may reach past the
         *                 bytes given
         * @param blank    whether it is the end-of-segment marker
         */
        void piece(int position, int size, boolean blank);
    }

    /**
     * Walks {@code bytes} from {@code from} to {@code limit}, telling {@code visitor} of each whole piece, and stops
     * before a partial entry (fewer bytes left than its marker or its size).
     *
     * @param maxEntrySize the largest entry size believed
     * @param firstOffset  what {@code from} is called in messages (a commit-log offset, or 0 for a byte position)
     * @return where the walk stopped: {@code limit}, or the start of the partial entry
     * @throws IllegalArgumentException naming the piece whose declared size no entry or marker can have
     */
    public static int split(ByteBuffer bytes, int from, int limit, int maxEntrySize, long firstOffset,
                            Visitor visitor) {
        int at = from;
        while (limit - at >= StoredMessageCodec.BLANK_MARKER_SIZE) {
            int size = bytes.getInt(at + StoredMessageCodec.TOTAL_SIZE_POSITION);
            boolean blank = bytes.getInt(at + StoredMessageCodec.MAGIC_POSITION) == StoredMessageCodec.BLANK_MAGIC;
            if (size < StoredMessageCodec.BLANK_MARKER_SIZE || !blank && size > maxEntrySize) {
                throw new IllegalArgumentException((blank ? "a blank marker of " : "an entry of ") + size
                        + " bytes at " + (firstOffset + at - from) + (blank ? "" : " (at most " + maxEntrySize
                        + " expected)"));
            }
            if (!blank && limit - at < size) {
                break;
            }
            visitor.piece(at, size, blank);
            at += Math.min(size, limit - at);
        }
        return at;
    }

    /**
     * The entries of an answer that holds whole message entries only (a pull, a query, a view by id), each a slice of
     * exactly its bytes; {@code body} is not moved.
     *
     * @throws IllegalArgumentException naming the first byte where the body stops being whole entries
     */
    public static List<ByteBuffer> records(ByteBuffer body) {
        int from = body.position();
        int limit = body.limit();
        List<ByteBuffer> records = new ArrayList<>();
        int end = split(body, from, limit, limit - from, 0, (position, size, blank) -> {
            if (blank) {
                throw new IllegalArgumentException("the record at byte " + (position - from)
                        + " is an end-of-segment marker, not a message");
            }
            records.add(body.slice(position, size));
        });
        if (end < limit) {
            int remaining = limit - end;
            throw new IllegalArgumentException("the record at byte " + (end - from)
                    + (remaining < 4 ? " is cut short" : " claims " + body.getInt(end) + " bytes")
                    + ", " + remaining + " remain");
        }
        return records;
    }
}
