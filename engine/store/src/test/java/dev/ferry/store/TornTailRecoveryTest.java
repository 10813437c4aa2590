package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hand-made torn files: the last commit-log entry is cut, zeroed from a random point, or damaged, as a crash would
 * leave it; the store must keep every earlier entry and serve nothing of the last.
 */
class TornTailRecoveryTest {
    private static final int MESSAGES = 60;

    @TempDir
    Path dir;

    enum Damage { TRUNCATE_FILE, ZERO_FROM_POINT, GARBAGE_FROM_POINT, FLIP_BODY_BYTE }

    static Stream<Arguments> damages() {
        List<Arguments> cases = new ArrayList<>();
        for (Damage damage : Damage.values()) {
            for (long seed = 1; seed <= 6; seed++) {
                cases.add(Arguments.of(damage, seed));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("damages")
    void shouldTruncateTornTailAfterCrash(Damage damage, long seed) throws IOException {
        Random random = new Random(seed);
        List<AppendResult> results = writeMessages(random);
        AppendResult last = results.get(results.size() - 1);
        simulateCrash();
        damageLastEntry(damage, last, random);

        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            RecoveryReport report = store.recoveryReport();
            assertThat(report.cleanShutdown()).isFalse();
            assertThat(report.validEndOffset()).isEqualTo(last.physicalOffset());
            assertThat(store.commitLogEndOffset()).isEqualTo(last.physicalOffset());
            assertThat(store.messageAt(last.physicalOffset())).isEmpty();
            assertConsistent(store, results.subList(0, results.size() - 1));

            AppendResult next = store.append(TestMessages.message("Torn", (MESSAGES - 1) % 3, "after recovery"));
            assertThat(next.physicalOffset()).isEqualTo(last.physicalOffset());
            assertThat(next.queueOffset()).isEqualTo(last.queueOffset());
        }
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.recoveryReport().cleanShutdown()).isTrue();
            assertThat(store.recoveryReport().truncatedBytes()).isZero();
        }
    }

    @Test
    void shouldRecoverCleanShutdownWithoutRedispatch() {
        List<AppendResult> results = writeMessages(new Random(7));
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.recoveryReport().cleanShutdown()).isTrue();
            assertThat(store.recoveryReport().redispatchedMessages()).isZero();
            assertThat(store.recoveryReport().truncatedBytes()).isZero();
            assertConsistent(store, results);
        }
    }

    @Test
    void shouldRebuildConsumeQueueAndIndexBeyondCheckpointAfterCrash() throws IOException {
        List<AppendResult> results = new ArrayList<>();
        byte[] oldCheckpoint;
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            for (int i = 0; i < 20; i++) {
                results.add(store.append(TestMessages.message("Torn", i % 3, "early " + i, null, "k" + i)));
            }
            org.awaitility.Awaitility.await().until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            store.flush();
            oldCheckpoint = Files.readAllBytes(dir.resolve(Checkpoint.FILE_NAME));
            for (int i = 20; i < MESSAGES; i++) {
                results.add(store.append(TestMessages.message("Torn", i % 3, "late " + i, null, "k" + i)));
            }
        }
        Files.write(dir.resolve(Checkpoint.FILE_NAME), oldCheckpoint);
        simulateCrash();
        zeroConsumeQueueEntriesFrom(7);
        ConsumeQueueDispatchTest.deleteRecursively(dir.resolve("index"));

        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.recoveryReport().cleanShutdown()).isFalse();
            assertThat(store.recoveryReport().redispatchedMessages()).isEqualTo(MESSAGES - 20);
            assertConsistent(store, results);
            assertThat(store.queryMessagesByKey("Torn", "k55", 5, 0, Long.MAX_VALUE).views()).hasSize(1);
        }
    }

    @Test
    void shouldForceTheIndexLessOftenAndRebuildWhatItLostFromItsOwnCheckpoint() throws IOException {
        StoreConfig config = TestMessages.smallConfig(dir).flushInterval(Duration.ofMillis(20))
            .indexFlushInterval(Duration.ofHours(1)).build();
        Path durableIndex = dir.resolveSibling(dir.getFileName() + "-index-at-force");
        byte[] checkpointBeforeCrash;
        long indexForcedAt;
        try (MessageStore store = MessageStore.builder(config).open()) {
            for (int i = 0; i < 10; i++) {
                store.append(TestMessages.message("Lag", 0, "early " + i, null, "k" + i));
            }
            await().until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            store.flush();
            indexForcedAt = store.commitLogEndOffset();
            copyRecursively(dir.resolve("index"), durableIndex);
            for (int i = 10; i < 20; i++) {
                store.append(TestMessages.message("Lag", 0, "late " + i, null, "k" + i));
            }
            long end = store.commitLogEndOffset();
            await().until(() -> Checkpoint.read(dir).map(Checkpoint::consumeQueueOffset).orElse(0L) == end);
            Checkpoint running = Checkpoint.read(dir).orElseThrow();
            assertThat(running.indexOffset()).as("the index is not forced every round").isEqualTo(indexForcedAt);
            checkpointBeforeCrash = Files.readAllBytes(dir.resolve(Checkpoint.FILE_NAME));
        }
        // The crash: the index holds only what its last force made durable, the checkpoint says so.
        ConsumeQueueDispatchTest.deleteRecursively(dir.resolve("index"));
        copyRecursively(durableIndex, dir.resolve("index"));
        Files.write(dir.resolve(Checkpoint.FILE_NAME), checkpointBeforeCrash);
        simulateCrash();

        try (MessageStore store = MessageStore.builder(config).open()) {
            assertThat(store.recoveryReport().redispatchedMessages()).isEqualTo(10);
            for (String key : List.of("k3", "k15")) {
                assertThat(store.queryMessagesByKey("Lag", key, 5, 0, Long.MAX_VALUE).views()).as(key).hasSize(1);
            }
        } finally {
            ConsumeQueueDispatchTest.deleteRecursively(durableIndex);
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        }
    }

    private List<AppendResult> writeMessages(Random random) {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            for (int i = 0; i < MESSAGES; i++) {
                byte[] body = TestMessages.body(random.nextLong(), 200 + random.nextInt(2000));
                MessageToStore message = MessageToStore.builder("Torn", i % 3, body)
                    .properties(java.util.Map.of(MessageProperties.KEYS, "k" + i)).build();
                results.add(store.append(message));
            }
        }
        return results;
    }

    private void simulateCrash() throws IOException {
        Files.createFile(dir.resolve(MessageStore.ABORT_FILE));
    }

    private void damageLastEntry(Damage damage, AppendResult last, Random random) throws IOException {
        long segmentSize = 64 * 1024;
        long base = last.physicalOffset() - last.physicalOffset() % segmentSize;
        Path segment = dir.resolve("commitlog").resolve(String.format("%020d", base));
        long entryStart = last.physicalOffset() - base;
        long point = entryStart + random.nextInt(last.size());
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
            switch (damage) {
                case TRUNCATE_FILE -> file.setLength(point);
                case ZERO_FROM_POINT -> {
                    file.seek(point);
                    file.write(new byte[(int) (entryStart + last.size() - point)]);
                }
                case GARBAGE_FROM_POINT -> {
                    byte[] garbage = new byte[(int) (entryStart + last.size() - point)];
                    random.nextBytes(garbage);
                    garbage[garbage.length - 1] = 0;
                    file.seek(point);
                    file.write(garbage);
                }
                case FLIP_BODY_BYTE -> {
                    long bodyByte = entryStart + 84 + 4 + random.nextInt(200);
                    file.seek(bodyByte);
                    int old = file.read();
                    file.seek(bodyByte);
                    file.write(old ^ (1 + random.nextInt(255)));
                }
                default -> throw new IllegalStateException();
            }
        }
    }

    private void zeroConsumeQueueEntriesFrom(int queueOffset) throws IOException {
        for (int q = 0; q < 3; q++) {
            Path file = dir.resolve("consumequeue").resolve("Torn").resolve(Integer.toString(q))
                .resolve(String.format("%020d", 0));
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                raf.seek(queueOffset * 20L);
                raf.write(new byte[(int) (raf.length() - queueOffset * 20L)]);
            }
        }
    }

    /** Every expected message is readable with identical fields through its queue, and queues hold nothing else. */
    static void assertConsistent(MessageStore store, List<AppendResult> expected) {
        java.util.Map<Integer, Long> perQueue = new java.util.HashMap<>();
        for (AppendResult r : expected) {
            StoredMessageView view = store.messageAt(r.physicalOffset()).orElseThrow();
            assertThat(view.totalSize()).isEqualTo(r.size());
            assertThat(view.computeBodyCrc()).isEqualTo(view.bodyCrc());
            GetMessageResult read = store.getMessages(view.topic(), view.queueId(), r.queueOffset(), 1, 1 << 20,
                MessageFilterPredicate.ALL);
            assertThat(read.status()).isEqualTo(GetMessageStatus.FOUND);
            assertThat(read.messages().get(0)).isEqualTo(view.bytes());
            perQueue.merge(view.queueId(), 1L, Long::sum);
        }
        perQueue.forEach((queueId, count) -> assertThat(store.nextOffset("Torn", queueId)).isEqualTo(count));
    }
}
