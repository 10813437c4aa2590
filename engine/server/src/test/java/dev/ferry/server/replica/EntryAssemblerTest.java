package dev.ferry.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.StoredMessageCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * However a master cuts its stream into frames (Apache's every 32 KiB, mid-entry), the slave gets each whole entry
 * once, at its offset, with the bytes the master has there, and of a segment's blank stretch only its marker.
 */
class EntryAssemblerTest {
    private static final int SEGMENT = 4096;

    /** A commit log of {@code entries} random entries over segments of {@value #SEGMENT} bytes, and what it holds. */
    private record Log(ByteBuffer bytes, List<long[]> entries) {
    }

    @Property(tries = 300)
    void shouldHandBackEveryWholeEntryOnceWhereverTheStreamIsCut(@ForAll long seed) {
        Random random = new Random(seed);
        Log log = log(random, 1 + random.nextInt(80));
        EntryAssembler assembler = new EntryAssembler(SEGMENT);
        List<long[]> seen = new ArrayList<>();
        int at = 0;
        int end = log.bytes().limit();
        while (at < end) {
            int length = Math.min(end - at, 1 + random.nextInt(random.nextBoolean() ? 64 : 1500));
            ByteBuffer frame = log.bytes().slice(at, length);
            for (EntryAssembler.Entries entries : assembler.accept(at, frame)) {
                walk(entries, log.bytes(), seen);
            }
            at += length;
        }
        assertThat(seen).as("entries handed back (offset, size)").usingElementComparator((a, b) ->
                a[0] == b[0] && a[1] == b[1] ? 0 : 1).containsExactlyElementsOf(log.entries());
        assertThat(assembler.streamOffset()).isEqualTo(end);
    }

    @Test
    void shouldRefuseAFrameThatDoesNotContinueTheStreamAndAnEntryLargerThanASegment() {
        Log log = log(new Random(7), 5);
        EntryAssembler assembler = new EntryAssembler(SEGMENT);
        assembler.accept(0, log.bytes().slice(0, 100));
        assertThatThrownBy(() -> assembler.accept(101, log.bytes().slice(101, 10)))
                .hasMessageContaining("offset 101 where 100 was expected");

        ByteBuffer huge = ByteBuffer.allocate(16).putInt(0, SEGMENT + 1).putInt(4, StoredMessageCodec.MAGIC_V2);
        assertThatThrownBy(() -> new EntryAssembler(SEGMENT).accept(0, huge))
                .hasMessageContaining("an entry of " + (SEGMENT + 1) + " bytes at 0");
    }

    /** Checks the entries of one chunk against the log, recording each (offset, size); a blank ends the chunk. */
    private static void walk(EntryAssembler.Entries entries, ByteBuffer log, List<long[]> seen) {
        ByteBuffer bytes = entries.bytes();
        int position = 0;
        while (position < bytes.limit()) {
            long offset = entries.offset() + position;
            int size = bytes.getInt(position);
            boolean blank = bytes.getInt(position + 4) == StoredMessageCodec.BLANK_MAGIC;
            int length = blank ? StoredMessageCodec.BLANK_MARKER_SIZE : size;
            assertThat(bytes.slice(position, length)).as("bytes at %d", offset)
                    .isEqualTo(log.slice((int) offset, length));
            seen.add(new long[] {offset, size});
            position += length;
            if (blank) {
                assertThat(position).as("a blank marker ends its chunk").isEqualTo(bytes.limit());
            }
        }
    }

    private static Log log(Random random, int count) {
        ByteBuffer bytes = ByteBuffer.allocate(SEGMENT * (count + 2));
        List<long[]> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int size = 8 + random.nextInt(random.nextInt(10) == 0 ? 2000 : 300);
            int left = SEGMENT - bytes.position() % SEGMENT;
            if (size + StoredMessageCodec.BLANK_MARKER_SIZE > left) {
                entries.add(new long[] {bytes.position(), left});
                bytes.putInt(left).putInt(StoredMessageCodec.BLANK_MAGIC);
                bytes.position(bytes.position() + left - StoredMessageCodec.BLANK_MARKER_SIZE);
            }
            entries.add(new long[] {bytes.position(), size});
            bytes.putInt(size).putInt(StoredMessageCodec.MAGIC_V2);
            for (int b = 8; b < size; b++) {
                bytes.put((byte) random.nextInt());
            }
        }
        bytes.flip();
        return new Log(bytes, entries);
    }
}
