package dev.ferry.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The walk over entries back to back: wherever the bytes are cut, it hands back every whole piece once, in order,
 * and stops at the first partial one; a size no piece can have is refused by its position; random bytes give whole
 * pieces inside the bytes or {@link IllegalArgumentException}, nothing else.
 */
class StoredEntriesTest {
    private static final int SEGMENT = 2048;

    /** Pieces as (position, size, blank) over segments of {@value #SEGMENT} bytes, each blank closing its segment. */
    private record Log(ByteBuffer bytes, List<int[]> pieces) {
    }

    @Property(tries = 300)
    void shouldHandBackEveryWholePieceOnceAndStopAtThePartialOne(@ForAll long seed) {
        Random random = new Random(seed);
        Log log = log(random, 1 + random.nextInt(40));
        int cut = random.nextInt(log.bytes().limit() + 1);
        List<int[]> seen = new ArrayList<>();

        int end = StoredEntries.split(log.bytes(), 0, cut, SEGMENT, 0,
                (position, size, blank) -> seen.add(new int[] {position, size, blank ? 1 : 0}));

        List<int[]> whole = log.pieces().stream().filter(p -> p[2] == 1 ? p[0] + 8 <= cut : p[0] + p[1] <= cut)
                .toList();
        assertThat(seen).usingElementComparator((a, b) -> java.util.Arrays.equals(a, b) ? 0 : 1)
                .containsExactlyElementsOf(whole);
        int[] next = log.pieces().stream().filter(p -> !whole.contains(p)).findFirst().orElse(null);
        assertThat(end).as("stops where the first partial piece starts, or at the cut")
                .isEqualTo(next == null ? cut : Math.min(next[0], cut));
    }

    @Property(tries = 500)
    void shouldStayInsideRandomBytesOrRefuseThem(@ForAll byte[] bytes) {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        try {
            int end = StoredEntries.split(buffer, 0, bytes.length, SEGMENT, 0, (position, size, blank) -> {
                assertThat(position).isBetween(0, bytes.length - StoredMessageCodec.BLANK_MARKER_SIZE);
                assertThat(blank || position + size <= bytes.length).isTrue();
            });
            assertThat(end).isBetween(0, bytes.length);
            StoredEntries.records(buffer).forEach(r -> assertThat(r.remaining()).isLessThanOrEqualTo(bytes.length));
        } catch (IllegalArgumentException refused) {
            assertThat(refused).hasMessageContaining("at");
        }
    }

    @Test
    void shouldRefuseAnEntryLargerThanTheLargestBelievedNamingItsOffset() {
        ByteBuffer huge = ByteBuffer.allocate(16).putInt(0, SEGMENT + 1).putInt(4, StoredMessageCodec.MAGIC_V2);

        assertThatThrownBy(() -> StoredEntries.split(huge, 0, 16, SEGMENT, 4096, (p, s, b) -> { }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("an entry of 2049 bytes at 4096 (at most 2048 expected)");
    }

    @Test
    void shouldRefuseASizeTooSmallForAnyPiece() {
        ByteBuffer tiny = ByteBuffer.allocate(16).putInt(0, 4).putInt(4, StoredMessageCodec.BLANK_MAGIC);

        assertThatThrownBy(() -> StoredEntries.split(tiny, 0, 16, SEGMENT, 0, (p, s, b) -> { }))
                .hasMessage("a blank marker of 4 bytes at 0");
    }

    @Test
    void shouldGiveTheRecordsOfAnAnswerAsSlicesOfExactlyTheirBytes() {
        ByteBuffer body = ByteBuffer.allocate(30).putInt(0, 10).putInt(4, StoredMessageCodec.MAGIC_V2)
                .putInt(10, 20).putInt(14, StoredMessageCodec.MAGIC_V1);

        List<ByteBuffer> records = StoredEntries.records(body);

        assertThat(records).extracting(ByteBuffer::remaining).containsExactly(10, 20);
        assertThat(records.get(1).getInt(4)).isEqualTo(StoredMessageCodec.MAGIC_V1);
        assertThat(body.position()).isZero();
    }

    @Test
    void shouldRefuseAnAnswerWhoseLastRecordIsCutShort() {
        ByteBuffer body = ByteBuffer.allocate(20).putInt(0, 10).putInt(4, StoredMessageCodec.MAGIC_V2)
                .putInt(10, 12).putInt(14, StoredMessageCodec.MAGIC_V2);

        assertThatThrownBy(() -> StoredEntries.records(body))
                .hasMessage("the record at byte 10 claims 12 bytes, 10 remain");
        assertThatThrownBy(() -> StoredEntries.records(body.duplicate().limit(13)))
                .hasMessage("the record at byte 10 is cut short, 3 remain");
    }

    @Test
    void shouldRefuseABlankMarkerInAnAnswer() {
        ByteBuffer body = ByteBuffer.allocate(8).putInt(0, 8).putInt(4, StoredMessageCodec.BLANK_MAGIC);

        assertThatThrownBy(() -> StoredEntries.records(body))
                .hasMessage("the record at byte 0 is an end-of-segment marker, not a message");
    }

    private static Log log(Random random, int count) {
        ByteBuffer bytes = ByteBuffer.allocate(SEGMENT * (count + 2));
        List<int[]> pieces = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int size = 8 + random.nextInt(random.nextInt(10) == 0 ? 1500 : 200);
            int left = SEGMENT - bytes.position() % SEGMENT;
            if (size + StoredMessageCodec.BLANK_MARKER_SIZE > left) {
                pieces.add(new int[] {bytes.position(), left, 1});
                bytes.putInt(left).putInt(StoredMessageCodec.BLANK_MAGIC);
                bytes.position(bytes.position() + left - StoredMessageCodec.BLANK_MARKER_SIZE);
            }
            pieces.add(new int[] {bytes.position(), size, 0});
            bytes.putInt(size).putInt(StoredMessageCodec.MAGIC_V2);
            bytes.position(bytes.position() + size - 8);
        }
        bytes.flip();
        return new Log(bytes, pieces);
    }
}
