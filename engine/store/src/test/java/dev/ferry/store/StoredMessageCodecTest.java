package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.StoredMessageCodec;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Entry verification over a plain buffer, without files. */
class StoredMessageCodecTest {
    private static final int SEGMENT = 4096;

    private static ByteBuffer segmentWithOneEntry(PreparedMessage message, long base) {
        ByteBuffer segment = ByteBuffer.allocate(SEGMENT);
        StoredMessageCodec.encode(segment, 0, message, 5, base, 1_700_000_000_000L);
        return segment;
    }

    @Test
    void shouldVerifyAnIntactEntryThenSeeTheEnd() {
        PreparedMessage message = PreparedMessage.prepare(TestMessages.message("C", 1, "intact", "t", "k"), 1024);
        ByteBuffer segment = segmentWithOneEntry(message, 8192);
        StoredMessageCodec.EntryCheck first = StoredMessageCodec.check(segment, 0, SEGMENT, 8192);
        assertThat(first.verdict()).isEqualTo(StoredMessageCodec.Verdict.MESSAGE);
        assertThat(first.size()).isEqualTo(message.encodedLength());
        assertThat(StoredMessageCodec.check(segment, first.size(), SEGMENT, 8192 + first.size()).verdict())
            .isEqualTo(StoredMessageCodec.Verdict.END);
    }

    @Test
    void shouldRecognizeBlankMarkerCoveringTheRest() {
        ByteBuffer segment = ByteBuffer.allocate(SEGMENT);
        StoredMessageCodec.encodeBlank(segment, 4000, SEGMENT - 4000);
        StoredMessageCodec.EntryCheck check = StoredMessageCodec.check(segment, 4000, SEGMENT, 4000);
        assertThat(check.verdict()).isEqualTo(StoredMessageCodec.Verdict.BLANK);
        assertThat(check.size()).isEqualTo(SEGMENT - 4000);
    }

    @Test
    void shouldRejectEntryClaimingAnotherPhysicalOffset() {
        PreparedMessage message = PreparedMessage.prepare(TestMessages.message("C", 1, "moved"), 1024);
        ByteBuffer segment = segmentWithOneEntry(message, 0);
        assertThat(StoredMessageCodec.check(segment, 0, SEGMENT, 4096).problem()).contains("physical offset");
    }

    @Test
    void shouldRejectEntryWhoseTotalSizeWasWrittenLast() {
        PreparedMessage message = PreparedMessage.prepare(TestMessages.message("C", 1, "torn"), 1024);
        ByteBuffer segment = segmentWithOneEntry(message, 0);
        segment.putInt(0, 0);
        assertThat(StoredMessageCodec.check(segment, 0, SEGMENT, 0).verdict())
            .isEqualTo(StoredMessageCodec.Verdict.CORRUPT);
    }

    @Test
    void shouldRejectPropertiesWithoutTrailingSeparator() {
        PreparedMessage message = PreparedMessage.prepare(TestMessages.message("C", 1, "props", "tag", null), 1024);
        ByteBuffer segment = segmentWithOneEntry(message, 0);
        segment.put(message.encodedLength() - 1, (byte) 0);
        assertThat(StoredMessageCodec.check(segment, 0, SEGMENT, 0).problem()).contains("properties torn");
    }
}
