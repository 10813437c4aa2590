package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.rocketmq.common.message.MessageDecoder;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class CommitLogSegmentTest {
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path dir;

    /** Async flush writes into the mapping, sync flush through the file channel: the bytes must be the same. */
    @ParameterizedTest
    @EnumSource(FlushMode.class)
    void shouldNameSegmentsByStartOffsetAndEndEachWithBlankMarker(FlushMode flushMode) throws IOException {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).flushMode(flushMode).build())
            .open()) {
            for (int i = 0; i < 200; i++) {
                results.add(store.append(TestMessages.message("Roll", i % 2, "m" + i + "-" + "x".repeat(900))));
            }
        }
        List<String> names;
        try (Stream<Path> files = Files.list(dir.resolve("commitlog"))) {
            names = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(names).hasSizeGreaterThanOrEqualTo(3).allMatch(n -> n.matches("\\d{20}"));
        assertThat(names.get(0)).isEqualTo("00000000000000000000");
        assertThat(names.get(1)).isEqualTo(String.format("%020d", SEGMENT));
        assertThat(Files.size(dir.resolve("commitlog").resolve(names.get(0)))).isEqualTo(SEGMENT);

        ByteBuffer first = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("commitlog").resolve(names.get(0))));
        long lastInFirst = results.stream().mapToLong(AppendResult::nextPhysicalOffset)
            .filter(end -> end <= SEGMENT).max().orElseThrow();
        assertThat(first.getInt((int) lastInFirst)).isEqualTo(SEGMENT - (int) lastInFirst);
        assertThat(first.getInt((int) lastInFirst + 4)).isEqualTo(0xCBD43194);
        assertThat(results).allMatch(r -> r.physicalOffset() / SEGMENT == (r.nextPhysicalOffset() - 1) / SEGMENT);

        first.limit((int) lastInFirst);
        List<MessageExt> decoded = MessageDecoder.decodes(first);
        assertThat(decoded).hasSize((int) results.stream().filter(r -> r.nextPhysicalOffset() <= SEGMENT).count());
        assertThat(decoded.get(5).getQueueOffset()).isEqualTo(results.get(5).queueOffset());
    }

    @ParameterizedTest
    @ValueSource(ints = {SEGMENT / 2, SEGMENT * 2})
    void shouldRefuseToOpenWhenTheCommitLogWasMadeWithAnotherSegmentSize(int otherSize) {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            for (int i = 0; i < 100; i++) {
                store.append(TestMessages.message("Roll", 0, "m" + i + "-" + "x".repeat(900)));
            }
        }

        assertThatThrownBy(() -> MessageStore.builder(TestMessages.smallConfig(dir).commitLogSegmentSize(otherSize)
            .build()).open().close())
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("was not made with the " + otherSize + "-byte segments")
            .hasMessageContaining("commitLogSegmentSize");
        try (MessageStore reopened = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(reopened.getMessages("Roll", 0, 99, 1, 1 << 20, MessageFilterPredicate.ALL).status())
                .isEqualTo(GetMessageStatus.FOUND);
        }
    }

    @Test
    void shouldAssignQueueOffsetsPerQueueAndPhysicalOffsetsInOrder() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            AppendResult a0 = store.append(TestMessages.message("T", 0, "a"));
            AppendResult b0 = store.append(TestMessages.message("T", 1, "b"));
            AppendResult a1 = store.append(TestMessages.message("T", 0, "c"));
            AppendResult other = store.append(TestMessages.message("U", 0, "d"));
            assertThat(List.of(a0.queueOffset(), b0.queueOffset(), a1.queueOffset(), other.queueOffset()))
                .containsExactly(0L, 0L, 1L, 0L);
            assertThat(b0.physicalOffset()).isEqualTo(a0.nextPhysicalOffset());
            assertThat(a1.physicalOffset()).isEqualTo(b0.nextPhysicalOffset());
        }
    }
}
