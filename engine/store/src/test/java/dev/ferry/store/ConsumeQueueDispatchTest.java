package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.SysFlags;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConsumeQueueDispatchTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteTwentyByteEntriesPerTopicAndQueue() throws IOException {
        List<AppendResult> results = new ArrayList<>();
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            for (int i = 0; i < 900; i++) {
                results.add(store.append(TestMessages.message("CQ", i % 3, "m" + i, "tag" + (i % 3), null)));
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            assertThat(store.nextOffset("CQ", 0)).isEqualTo(300);
        }
        Path queue0 = dir.resolve("consumequeue").resolve("CQ").resolve("0");
        List<Path> segments;
        try (Stream<Path> files = Files.list(queue0)) {
            segments = files.sorted().toList();
        }
        assertThat(segments).extracting(p -> p.getFileName().toString())
            .containsExactly("00000000000000000000", String.format("%020d", 256 * 20));
        java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(Files.readAllBytes(segments.get(0)));
        AppendResult third = results.get(6);
        assertThat(bytes.getLong(2 * 20)).isEqualTo(third.physicalOffset());
        assertThat(bytes.getInt(2 * 20 + 8)).isEqualTo(third.size());
        assertThat(bytes.getLong(2 * 20 + 12)).isEqualTo("tag0".hashCode());
    }

    @Test
    void shouldNotDispatchPreparedOrRolledBackTransactionalMessages() {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            store.append(tx("half", SysFlags.TRANSACTION_PREPARED_TYPE));
            store.append(tx("rolled back", SysFlags.TRANSACTION_ROLLBACK_TYPE));
            AppendResult committed = store.append(tx("committed", SysFlags.TRANSACTION_COMMIT_TYPE));
            AppendResult plain = store.append(tx("plain", SysFlags.TRANSACTION_NOT_TYPE));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            assertThat(store.nextOffset("Tx", 0)).isEqualTo(2);
            assertThat(committed.queueOffset()).isZero();
            assertThat(plain.queueOffset()).isEqualTo(1);
            assertThat(store.getMessages("Tx", 0, 0, 10, 1 << 20, MessageFilterPredicate.ALL).views())
                .extracting(v -> TestMessages.text(v.body())).containsExactly("committed", "plain");
        }
    }

    private static MessageToStore tx(String body, int sysFlag) {
        return MessageToStore.builder("Tx", 0, body.getBytes(StandardCharsets.UTF_8)).sysFlag(sysFlag).build();
    }

    @Test
    void shouldTellArrivalListenerOfEveryDispatchedMessage() {
        List<String> arrivals = new CopyOnWriteArrayList<>();
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build())
            .arrivalListener((topic, queueId, next, tags, ts) -> arrivals.add(topic + "/" + queueId + "@" + next))
            .open()) {
            store.append(TestMessages.message("Arrive", 1, "a"));
            store.append(TestMessages.message("Arrive", 1, "b"));
            await().atMost(Duration.ofSeconds(5)).until(() -> arrivals.size() == 2);
            assertThat(arrivals).containsExactly("Arrive/1@1", "Arrive/1@2");
        }
    }

    @Test
    void shouldRebuildConsumeQueuesFromCommitLogAlone() throws IOException {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            for (int i = 0; i < 500; i++) {
                store.append(TestMessages.message("Rebuild", i % 4, "message " + i, "t" + (i % 5), "key" + i));
            }
        }
        deleteRecursively(dir.resolve("consumequeue"));
        deleteRecursively(dir.resolve("index"));
        Files.delete(dir.resolve(Checkpoint.FILE_NAME));
        Files.deleteIfExists(dir.resolve(Checkpoint.FILE_NAME + ".bak"));
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(store.recoveryReport().redispatchedMessages()).isEqualTo(500);
            for (int q = 0; q < 4; q++) {
                assertThat(store.nextOffset("Rebuild", q)).isEqualTo(125);
            }
            GetMessageResult read = store.getMessages("Rebuild", 2, 10, 1, 1 << 20, MessageFilterPredicate.ALL);
            assertThat(TestMessages.text(read.views().get(0).body())).isEqualTo("message 42");
            assertThat(store.queryMessagesByKey("Rebuild", "key42", 10, 0, Long.MAX_VALUE).views()).hasSize(1);
            assertThat(store.append(TestMessages.message("Rebuild", 2, "next")).queueOffset()).isEqualTo(125);
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
