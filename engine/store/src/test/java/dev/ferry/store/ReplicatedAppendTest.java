package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * A slave's store fed with a master's commit-log bytes: the same entries at the same offsets, segment by segment
 * (blank markers included), the same queues for consumers, and all of it there again after a restart. Bytes that do
 * not continue the log are refused, and nothing of them is written.
 */
class ReplicatedAppendTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(FlushMode.class)
    void shouldHoldTheMastersEntriesAtTheirOffsetsAndServeThemAfterARestart(FlushMode slaveFlush) {
        try (MessageStore master = MessageStore.builder(TestMessages.smallConfig(dir.resolve("master")).build())
                .open()) {
            for (int i = 0; i < 300; i++) {
                master.append(TestMessages.message("Copied", i % 3, "m" + i + "-" + "x".repeat(700)));
            }
            long end = master.commitLogEndOffset();
            assertThat(end).as("several segments").isGreaterThan(3L * 64 * 1024);
            try (MessageStore slave = MessageStore.builder(TestMessages.smallConfig(dir.resolve("slave"))
                    .flushMode(slaveFlush).build()).open()) {
                long at = 0;
                while (at < end) {
                    // what a segment holds, up to its write position: whole entries, its blank marker last
                    ByteBuffer chunk = master.replicaChunk(at, Integer.MAX_VALUE).orElseThrow();
                    at = slave.appendReplicated(at, chunk);
                }
                assertThat(at).isEqualTo(end);
                assertThat(master.replicaChunk(end, 1024)).isEmpty();
                assertSameQueues(master, slave);
            }
            try (MessageStore reopened = MessageStore.builder(TestMessages.smallConfig(dir.resolve("slave"))
                    .flushMode(slaveFlush).build()).open()) {
                assertThat(reopened.commitLogEndOffset()).isEqualTo(end);
                assertSameQueues(master, reopened);
            }
        }
    }

    @Test
    void shouldRefuseBytesThatDoNotContinueTheLogAndWriteNothingOfThem() {
        try (MessageStore master = MessageStore.builder(TestMessages.smallConfig(dir.resolve("master")).build())
                .open();
             MessageStore slave = MessageStore.builder(TestMessages.smallConfig(dir.resolve("slave")).build())
                     .open()) {
            AppendResult first = master.append(TestMessages.message("Copied", 0, "first"));
            AppendResult second = master.append(TestMessages.message("Copied", 0, "second"));
            ByteBuffer both = master.replicaChunk(0, Integer.MAX_VALUE).orElseThrow();

            assertThatThrownBy(() -> slave.appendReplicated(first.nextPhysicalOffset(), both.duplicate()))
                    .hasMessageContaining("needs the start of a segment");
            ByteBuffer torn = both.duplicate().limit(first.size() + 10);
            assertThatThrownBy(() -> slave.appendReplicated(0, torn)).hasMessageContaining("is not whole");
            ByteBuffer damaged = ByteBuffer.allocate(both.remaining()).put(both.duplicate()).flip();
            // the second entry claims to be stored elsewhere: nothing is written, the first entry neither
            damaged.putLong((int) second.physicalOffset() + StoredMessageCodec.PHYSICAL_OFFSET_POSITION, 12_345L);
            assertThatThrownBy(() -> slave.appendReplicated(0, damaged))
                    .hasMessageContaining("damaged or not stored there");
            assertThat(slave.commitLogEndOffset()).isZero();

            assertThat(slave.appendReplicated(0, both.duplicate().limit(first.size()))).isEqualTo(first.size());
            assertThatThrownBy(() -> slave.appendReplicated(0, both.duplicate()))
                    .hasMessageContaining("ends at " + first.size());
            assertThat(slave.commitLogEndOffset()).isEqualTo(first.size());
        }
    }

    private static void assertSameQueues(MessageStore master, MessageStore slave) {
        for (int queue = 0; queue < 3; queue++) {
            int q = queue;
            await().atMost(Duration.ofSeconds(10)).until(() -> slave.nextOffset("Copied", q) == 100);
            List<String> expected = bodies(master.getMessages("Copied", q, 0, 200, 1 << 24,
                    MessageFilterPredicate.ALL));
            assertThat(bodies(slave.getMessages("Copied", q, 0, 200, 1 << 24, MessageFilterPredicate.ALL)))
                    .hasSize(100).isEqualTo(expected);
        }
        Optional<StoredMessageView> last = slave.messageAt(master.getMessages("Copied", 2, 99, 1, 1 << 20,
                MessageFilterPredicate.ALL).views().get(0).physicalOffset());
        assertThat(last).isPresent();
    }

    private static List<String> bodies(GetMessageResult result) {
        return result.views().stream().map(view -> TestMessages.text(view.body())).toList();
    }
}
