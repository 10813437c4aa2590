package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TopicDeletionTest {
    @TempDir
    Path dir;

    private static void append(MessageStore store, String topic, int queueId, int count) {
        for (int i = 0; i < count; i++) {
            assertThat(store.append(TestMessages.message(topic, queueId, topic + "-" + i)).isStored()).isTrue();
        }
    }

    @Test
    void deletedTopicLosesItsQueuesAndStartsAgainAtZeroWhileOthersKeepTheirs() throws Exception {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            append(store, "Doomed", 0, 5);
            append(store, "Doomed", 1, 3);
            append(store, "Kept", 0, 4);

            assertThat(store.deleteTopic("Doomed").get(10, TimeUnit.SECONDS)).isEqualTo(2);

            assertThat(store.nextOffset("Doomed", 0)).isZero();
            assertThat(store.nextOffset("Doomed", 1)).isZero();
            assertThat(store.queueCounts()).doesNotContainKey("Doomed");
            assertThat(Files.exists(dir.resolve("consumequeue").resolve("Doomed"))).isFalse();
            assertThat(store.nextOffset("Kept", 0)).isEqualTo(4);

            append(store, "Doomed", 0, 2);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("Doomed", 0) == 2);
            GetMessageResult again = store.getMessages("Doomed", 0, 0, 10, 1 << 20, MessageFilterPredicate.ALL);
            assertThat(again.views()).extracting(v -> TestMessages.text(v.body()))
                    .containsExactly("Doomed-0", "Doomed-1");
            assertThat(again.queueOffsets()).containsExactly(0L, 1L);
        }
        // the deletion is final: a restart does not bring the old queues back from the commit log
        try (MessageStore reopened = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            assertThat(reopened.nextOffset("Doomed", 0)).isEqualTo(2);
            assertThat(reopened.nextOffset("Doomed", 1)).isZero();
            assertThat(reopened.nextOffset("Kept", 0)).isEqualTo(4);
        }
    }

    @Test
    void deletingAnUnknownTopicDropsNothing() throws Exception {
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build()).open()) {
            append(store, "Kept", 0, 1);
            assertThat(store.deleteTopic("Never").get(10, TimeUnit.SECONDS)).isZero();
            assertThat(store.nextOffset("Kept", 0)).isEqualTo(1);
        }
    }
}
