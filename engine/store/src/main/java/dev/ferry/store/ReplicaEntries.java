package dev.ferry.store;

import dev.ferry.format.StoredEntries;
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
        int from = entries.position();
        int end = StoredEntries.split(entries, from, entries.limit(), segmentSize, offset, (position, size, blank) -> {
            long at = offset + position - from;
            int left = (int) (segmentSize - at % segmentSize);
            if (blank && size != left) {
                throw new IllegalArgumentException("a blank marker at " + at + " covers " + size + " bytes but "
                        + "its segment has " + left + " left: the master's segments are not " + segmentSize
                        + " bytes");
            }
            if (!blank && size > left) {
                throw new IllegalArgumentException("an entry of " + size + " bytes at " + at + " is not whole "
                        + "or does not fit its segment (" + left + " bytes left)");
            }
            if (!blank && !StoredMessageCodec.isIntactEntry(entries.slice(position, size), at)) {
                throw new IllegalArgumentException("the entry at " + at + " is damaged or not stored there");
            }
            checked.add(new Entry(at, position, size, blank));
        });
        if (end < entries.limit()) {
            throw new IllegalArgumentException("the entry at " + (offset + end - from) + " is not whole: "
                    + (entries.limit() - end) + " bytes of it were sent");
        }
        return checked;
    }
}
