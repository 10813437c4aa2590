package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GetMessagesTest {
    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private MessageStore store;

    @BeforeEach
    void open() {
        store = MessageStore.builder(TestMessages.smallConfig(dir).build()).clock(clock).open();
    }

    @AfterEach
    void close() {
        assertThat(store.backgroundFailures()).isZero();
        store.close();
    }

    private List<AppendResult> appendTagged(int count) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            results.add(store.append(TestMessages.message("Read", 0, "body-" + i, i % 2 == 0 ? "even" : "odd",
                null)));
            clock.advance(Duration.ofSeconds(1));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("Read", 0) == count);
        return results;
    }

    @Test
    void shouldReturnStoredBytesWithNextMinAndMaxOffsets() {
        List<AppendResult> appended = appendTagged(10);
        GetMessageResult result = store.getMessages("Read", 0, 2, 3, 1 << 20, MessageFilterPredicate.ALL);
        assertThat(result.status()).isEqualTo(GetMessageStatus.FOUND);
        assertThat(result.queueOffsets()).containsExactly(2L, 3L, 4L);
        assertThat(result.nextBeginOffset()).isEqualTo(5);
        assertThat(result.minOffset()).isZero();
        assertThat(result.nextOffset()).isEqualTo(10);
        assertThat(result.views()).extracting(v -> TestMessages.text(v.body()))
            .containsExactly("body-2", "body-3", "body-4");
        assertThat(result.messages().get(0)).isEqualTo(store.messageAt(appended.get(2).physicalOffset())
            .orElseThrow().bytes());
    }

    @Test
    void shouldStopAtMaxBytesButReturnAtLeastOneMessage() {
        appendTagged(5);
        int size = store.getMessages("Read", 0, 0, 1, 1 << 20, MessageFilterPredicate.ALL).totalBytes();
        GetMessageResult two = store.getMessages("Read", 0, 0, 32, size * 2 + 1, MessageFilterPredicate.ALL);
        assertThat(two.messages()).hasSize(2);
        assertThat(two.nextBeginOffset()).isEqualTo(2);
        GetMessageResult tiny = store.getMessages("Read", 0, 0, 32, 1, MessageFilterPredicate.ALL);
        assertThat(tiny.messages()).hasSize(1);
    }

    @Test
    void shouldFilterOnTagsCodeFirstThenOnMessage() {
        appendTagged(10);
        AtomicInteger messageChecks = new AtomicInteger();
        MessageFilterPredicate evenButNotFour = MessageFilterPredicate.of(tagsCode -> tagsCode == "even".hashCode(),
            message -> messageChecks.incrementAndGet() > 0 && !TestMessages.text(message.body()).equals("body-4"));
        GetMessageResult result = store.getMessages("Read", 0, 0, 32, 1 << 20, evenButNotFour);
        assertThat(result.queueOffsets()).containsExactly(0L, 2L, 6L, 8L);
        assertThat(messageChecks).hasValue(5);
        assertThat(result.nextBeginOffset()).isEqualTo(10);
    }

    @Test
    void shouldAnswerNoMatchedMessageWhenFilterRejectsAll() {
        appendTagged(4);
        MessageFilterPredicate none = MessageFilterPredicate.of(tagsCode -> tagsCode == "absent".hashCode(),
            message -> true);
        GetMessageResult result = store.getMessages("Read", 0, 0, 32, 1 << 20, none);
        assertThat(result.status()).isEqualTo(GetMessageStatus.NO_MATCHED_MESSAGE);
        assertThat(result.nextBeginOffset()).isEqualTo(4);
    }

    @Test
    void shouldDistinguishNoNewMessageOverflowAndUnknownQueue() {
        appendTagged(3);
        assertThat(store.getMessages("Read", 0, 3, 1, 100, MessageFilterPredicate.ALL).status())
            .isEqualTo(GetMessageStatus.NO_NEW_MESSAGE);
        GetMessageResult overflow = store.getMessages("Read", 0, 9, 1, 100, MessageFilterPredicate.ALL);
        assertThat(overflow.status()).isEqualTo(GetMessageStatus.OFFSET_OVERFLOW);
        assertThat(overflow.nextBeginOffset()).isEqualTo(3);
        assertThat(store.getMessages("Nope", 0, 0, 1, 100, MessageFilterPredicate.ALL).status())
            .isEqualTo(GetMessageStatus.NO_MESSAGE_IN_QUEUE);
        assertThat(store.minOffset("Read", 0)).isZero();
        assertThat(store.nextOffset("Read", 0)).isEqualTo(3);
        assertThat(store.nextOffset("Nope", 0)).isZero();
    }

    @Test
    void shouldFindOffsetByStoreTimestamp() {
        List<AppendResult> appended = appendTagged(20);
        long t7 = appended.get(7).storeTimestamp();
        assertThat(store.offsetForTimestamp("Read", 0, t7)).isEqualTo(7);
        assertThat(store.offsetForTimestamp("Read", 0, t7 - 500)).isEqualTo(7);
        assertThat(store.offsetForTimestamp("Read", 0, 0)).isZero();
        assertThat(store.offsetForTimestamp("Read", 0, Long.MAX_VALUE)).isEqualTo(20);
    }
}
