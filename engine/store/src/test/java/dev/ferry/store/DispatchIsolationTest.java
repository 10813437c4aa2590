package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An entry the dispatcher cannot write neither wedges it nor the store's start-up, and is not lost: its queue is set
 * aside, counted, and rebuilt once the cause is gone, while every other queue goes on.
 */
class DispatchIsolationTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());

    private MessageStore open() {
        return MessageStore.builder(TestMessages.smallConfig(dir).build()).clock(clock).open();
    }

    private static List<String> bodies(MessageStore store, String topic, int queueId) {
        GetMessageResult result = store.getMessages(topic, queueId, 0, 100, 1 << 20, MessageFilterPredicate.ALL);
        return result.status() != GetMessageStatus.FOUND ? List.of()
            : result.views().stream().map(v -> TestMessages.text(v.body())).toList();
    }

    @Test
    void shouldGoOnWithOtherQueuesAndRebuildTheFailedOneOnceItCanBeWritten() throws IOException {
        Path blocker = TestMessages.blockQueueDirectory(dir, "Blocked");
        try (MessageStore store = open()) {
            store.append(TestMessages.message("Good", 0, "g1"));
            store.append(TestMessages.message("Blocked", 0, "b1"));
            store.append(TestMessages.message("Good", 0, "g2"));
            store.append(TestMessages.message("Blocked", 0, "b2"));
            store.append(TestMessages.message("Good", 0, "g3"));

            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Good", 0) == 3);
            assertThat(bodies(store, "Good", 0)).containsExactly("g1", "g2", "g3");
            assertThat(store.dispatchFailures()).isEqualTo(2);
            assertThat(store.setAsideQueues()).containsExactly("Blocked:0");
            assertThat(store.dispatchedOffset()).isEqualTo(store.commitLogEndOffset());

            Files.delete(blocker);
            clock.advance(Dispatcher.FIRST_REPAIR_DELAY);

            await().atMost(Duration.ofSeconds(10)).until(() -> store.setAsideQueues().isEmpty());
            assertThat(bodies(store, "Blocked", 0)).containsExactly("b1", "b2");
            store.append(TestMessages.message("Blocked", 0, "b3"));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Blocked", 0) == 3);
        }
    }

    @Test
    void shouldStartWithAnEntryItCannotDispatchAndDeliverItAfterTheCauseIsGone() throws IOException {
        try (MessageStore store = open()) {
            store.append(TestMessages.message("Good", 0, "g1"));
        }
        Path blocker = TestMessages.blockQueueDirectory(dir, "Blocked");
        try (MessageStore store = open()) {
            store.append(TestMessages.message("Blocked", 1, "b1"));
            store.append(TestMessages.message("Good", 0, "g2", null, "k-g2"));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Good", 0) == 2);
        }

        // The set-aside entry is older than the clean shutdown's end: the checkpoint keeps it in reach.
        try (MessageStore store = open()) {
            assertThat(store.setAsideQueues()).containsExactly("Blocked:1");
            store.append(TestMessages.message("Blocked", 1, "b2"));
            store.append(TestMessages.message("Good", 0, "g3"));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset("Good", 0) == 3);
            assertThat(bodies(store, "Good", 0)).containsExactly("g1", "g2", "g3");
        }

        Files.delete(blocker);
        try (MessageStore store = open()) {
            assertThat(store.setAsideQueues()).isEmpty();
            assertThat(bodies(store, "Blocked", 1)).containsExactly("b1", "b2");
            assertThat(bodies(store, "Good", 0)).containsExactly("g1", "g2", "g3");
            assertThat(store.queryMessagesByKey("Good", "k-g2", 10, 0, Long.MAX_VALUE).messages())
                .as("entries dispatched again for their queues are not indexed twice").hasSize(1);
        }
    }

    @Test
    void shouldGiveATopicTooLongForOneDirectoryEntryADirectoryThatFitsAndFindItAgain() {
        String retryTopicOfLongestGroup = "%RETRY%" + "g".repeat(255);
        try (MessageStore store = open()) {
            store.append(TestMessages.message(retryTopicOfLongestGroup, 0, "r1"));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset(retryTopicOfLongestGroup, 0) == 1);
            assertThat(store.dispatchFailures()).isZero();
        }
        try (MessageStore store = open()) {
            assertThat(bodies(store, retryTopicOfLongestGroup, 0)).containsExactly("r1");
            store.append(TestMessages.message(retryTopicOfLongestGroup, 0, "r2"));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.nextOffset(retryTopicOfLongestGroup, 0) == 2);
        }
    }
}
