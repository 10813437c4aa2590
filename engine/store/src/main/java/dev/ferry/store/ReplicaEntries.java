package dev.ferry.store;

import dev.ferry.format.StoredMessageCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** What a slave's commit log checks of replicated bytes before it writes any of them. */
final class ReplicaEntries {
    private ReplicaEntries() {
    }

    /** A replicated entry, checked: where it goes, where it is in the bytes received, and whether it ends a segment. */
    record Entry(long offset, int position, int size, boolean blank) {
    }

    /**
     * The entries of {@code entries}, which a master sent for {@code offset}, each checked against segments of
     * {@code segmentSize} bytes: whole, intact, stored at the offset it claims, a blank marker covering the rest of
     * its segment exactly.
     *
     * @throws IllegalArgumentException naming the first entry that is not
     */
    static List<Entry> check(long offset, ByteBuffer entries, int segmentSize) {
        List<Entry> checked = new ArrayList<>();
        long at = offset;
        int position = entries.position();
        while (position < entries.limit()) {
            int left = (int) (segmentSize - at % segmentSize);
            if (entries.limit() - position < StoredMessageCodec.BLANK_MARKER_SIZE) {
                throw new IllegalArgumentException("a partial entry at " + at);
            }
            int size = entries.getInt(position + StoredMessageCodec.TOTAL_SIZE_POSITION);
            int magic = entries.getInt(position + StoredMessageCodec.MAGIC_POSITION);
            if (magic == StoredMessageCodec.BLANK_MAGIC) {
                if (size != left) {
                    throw new IllegalArgumentException("a blank marker at " + at + " covers " + size + " bytes but "
                            + "its segment has " + left + " left: the master's segments are not " + segmentSize
                            + " bytes");
                }
                checked.add(new Entry(at, position, size, true));
                position += Math.min(size, entries.limit() - position); // the marker alone, or the whole rest
            } else {
                if (size <= 0 || size > left || entries.limit() - position < size) {
                    throw new IllegalArgumentException("an entry of " + size + " bytes at " + at + " is not whole "
                            + "or does not fit its segment (" + left + " bytes left)");
                }
                if (!StoredMessageCodec.isIntactEntry(entries.slice(position, size), at)) {
                    throw new IllegalArgumentException("the entry at " + at + " is damaged or not stored there");
                }
                checked.add(new Entry(at, position, size, false));
                position += size;
            }
            at += size;
        }
        return checked;
    }
}
