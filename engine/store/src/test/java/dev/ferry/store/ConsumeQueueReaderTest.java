package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader on its own, with consume-queue entries arranged by hand. */
class ConsumeQueueReaderTest {
    private static final Clock CLOCK = Clock.system();

    @TempDir
    Path dir;

    private CommitLog commitLog() {
        return new CommitLog(new SegmentedFile(dir.resolve("commitlog"), 64 * 1024), CLOCK,
            new DiskGuard(DiskSpace.of(1L << 40, () -> 1L << 39), 0.9, Duration.ZERO, CLOCK));
    }

    @Test
    void shouldAnswerOffsetOutOfRangeWhenEntriesPointOutsideTheCommitLog() {
        CommitLog commitLog = commitLog();
        AppendResult stored = commitLog.append(PreparedMessage.prepare(TestMessages.message("R", 0, "only"), 1024));
        ConsumeQueueTable queues = new ConsumeQueueTable(dir.resolve("consumequeue"), 16, CLOCK);
        ConsumeQueue queue = queues.findOrCreate("R", 0);
        queue.put(0, 1_000_000, 120, 0);
        queue.put(1, 2_000_000, 120, 0);
        queue.put(2, stored.physicalOffset(), stored.size(), 0);
        GetMessageResult outside = new ConsumeQueueReader(queues, commitLog, 2)
            .read("R", 0, 0, 32, 1 << 20, MessageFilterPredicate.ALL);
        assertThat(outside.status()).isEqualTo(GetMessageStatus.OFFSET_OUT_OF_RANGE);
        assertThat(outside.nextBeginOffset()).isEqualTo(2);

        GetMessageResult skipping = new ConsumeQueueReader(queues, commitLog, 100)
            .read("R", 0, 1, 5, 1 << 20, MessageFilterPredicate.ALL);
        assertThat(skipping.status()).isEqualTo(GetMessageStatus.FOUND);
        assertThat(skipping.queueOffsets()).containsExactly(2L);
    }

    @Test
    void shouldLimitEntriesExaminedByOneFilteredRead() {
        CommitLog commitLog = commitLog();
        ConsumeQueueTable queues = new ConsumeQueueTable(dir.resolve("consumequeue"), 16, CLOCK);
        ConsumeQueue queue = queues.findOrCreate("R", 0);
        for (int i = 0; i < 50; i++) {
            AppendResult r = commitLog.append(PreparedMessage.prepare(TestMessages.message("R", 0, "m" + i), 1024));
            queue.put(i, r.physicalOffset(), r.size(), 7);
        }
        ConsumeQueueReader reader = new ConsumeQueueReader(queues, commitLog, 10);
        GetMessageResult none = reader.read("R", 0, 0, 32, 1 << 20,
            MessageFilterPredicate.of(tagsCode -> tagsCode != 7, message -> true));
        assertThat(none.status()).isEqualTo(GetMessageStatus.NO_MATCHED_MESSAGE);
        assertThat(none.nextBeginOffset()).isEqualTo(10);
    }
}
