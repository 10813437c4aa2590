package dev.ferry.server.timer;

import dev.ferry.format.AtomicFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The {@link SlotRing} as it stood when the timer log ended at {@link #logEnd}, written now and then so that recovery
 * replays only the log written since ({@code timer/ring}): a header, then one (slot, head, count) per slot with entries.
 */
final class RingSnapshot {
    private static final int MAGIC = 0x46544d52; // "FTMR"
    private static final int ENTRY = 20;
    private final AtomicFile file;

    RingSnapshot(Path path) {
        this.file = new AtomicFile(path);
    }

    /** What a snapshot holds besides the slots. */
    record Header(long logEnd, long nextQueueOffset, long fromSlot) {
    }

    interface Loader {
        void slot(long slot, long head, int count);
    }

    /** Restores the saved slots through {@code loader} and returns the header; empty when none was saved. */
    Optional<Header> load(Loader loader) {
        return file.read(bytes -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            if (buffer.remaining() < 32 || buffer.getInt() != MAGIC) {
                throw new IllegalStateException("not a timer ring snapshot");
            }
            int slots = buffer.getInt();
            Header header = new Header(buffer.getLong(), buffer.getLong(), buffer.getLong());
            if (slots < 0 || buffer.remaining() != (long) slots * ENTRY) {
                throw new IllegalStateException("a timer ring snapshot of " + slots + " slots has "
                        + buffer.remaining() + " bytes");
            }
            for (int i = 0; i < slots; i++) {
                loader.slot(buffer.getLong(), buffer.getLong(), buffer.getInt());
            }
            return header;
        });
    }

    void save(Header header, SlotRing ring) {
        int[] slots = {0};
        ring.forEachFrom(header.fromSlot(), (slot, head, count) -> slots[0]++);
        ByteBuffer buffer = ByteBuffer.allocate(32 + slots[0] * ENTRY);
        buffer.putInt(MAGIC).putInt(slots[0]).putLong(header.logEnd()).putLong(header.nextQueueOffset())
                .putLong(header.fromSlot());
        ring.forEachFrom(header.fromSlot(), (slot, head, count) -> buffer.putLong(slot).putLong(head).putInt(count));
        try {
            file.write(buffer.array());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the timer ring to " + file.path(), e);
        }
    }
}
