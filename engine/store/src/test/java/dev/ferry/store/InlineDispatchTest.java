package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An append under async flush that finds the dispatcher idle dispatches what it wrote on its own thread, before it
 * returns; what it may not dispatch (too much waiting, sync flush, a listener appending) is left to the dispatch thread.
 * The dispatch thread is held back here (its factory hands out a thread that runs nothing), so whatever is dispatched
 * was dispatched by an appender.
 */
class InlineDispatchTest {
    @TempDir
    Path dir;

    /** Every store thread as usual, but the dispatch loop's, which never runs. */
    private static final ThreadFactory NO_DISPATCH_THREAD = task -> {
        Thread thread = task.toString().equals("ferry-store-dispatch") ? new Thread(() -> { }) : new Thread(task);
        thread.setDaemon(true);
        return thread;
    };

    @Test
    void appendThatFindsTheDispatcherIdleDispatchesItBeforeReturning() {
        List<String> arrivals = new CopyOnWriteArrayList<>();
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build())
            .threadFactory(NO_DISPATCH_THREAD)
            .arrivalListener((topic, queueId, next, tags, ts) ->
                arrivals.add(topic + "@" + next + " on " + Thread.currentThread().getName()))
            .open()) {
            String me = Thread.currentThread().getName();
            for (int i = 0; i < 3; i++) {
                store.append(TestMessages.message("Inline", 0, "m" + i));
                assertThat(store.dispatchedOffset()).isEqualTo(store.commitLogEndOffset());
            }
            store.appendAsync(TestMessages.message("Inline", 0, "async")).join();
            assertThat(store.dispatchedOffset()).isEqualTo(store.commitLogEndOffset());
            assertThat(arrivals).containsExactly("Inline@1 on " + me, "Inline@2 on " + me, "Inline@3 on " + me,
                "Inline@4 on " + me);
            assertThat(store.nextOffset("Inline", 0)).isEqualTo(4);
        }
    }

    @Test
    void moreWaitingThanAnAppenderTakesOnIsLeftToTheDispatchThread() {
        StoreConfig config = TestMessages.smallConfig(dir).commitLogSegmentSize(1 << 20)
            .maxMessageBodySize(256 << 10).build();
        byte[] large = new byte[(int) Dispatcher.MOST_DISPATCHED_INLINE + 1];
        try (MessageStore store = MessageStore.builder(config).threadFactory(NO_DISPATCH_THREAD).open()) {
            store.append(MessageToStore.builder("Large", 0, large).build());
            assertThat(store.dispatchedOffset()).isZero();
            assertThat(store.commitLogEndOffset()).isGreaterThan(Dispatcher.MOST_DISPATCHED_INLINE);
        }
        try (MessageStore store = MessageStore.builder(config).open()) { // with its dispatch thread: recovered
            await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("Large", 0) == 1);
        }
    }

    @Test
    void appendUnderSyncFlushLeavesDispatchToTheDispatchThread() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        try (MessageStore store = MessageStore.builder(config).threadFactory(NO_DISPATCH_THREAD).open()) {
            AppendResult result = store.append(TestMessages.message("Sync", 0, "forced first"));
            assertThat(result.status()).isEqualTo(AppendStatus.PUT_OK);
            assertThat(store.dispatchedOffset()).isZero(); // consumers see bytes only once forced: the loop's job
        }
    }

    @Test
    void dispatchThatFailsOnTheAppendingThreadDoesNotFailTheStoredAppend() {
        List<String> arrivals = new CopyOnWriteArrayList<>();
        boolean[] failed = {false};
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build())
            .threadFactory(NO_DISPATCH_THREAD)
            .arrivalListener((topic, queueId, next, tags, ts) -> {
                if (!failed[0]) {
                    failed[0] = true;
                    throw new InternalError("a mapped page the disk cannot back");
                }
                arrivals.add(topic + "@" + next);
            })
            .open()) {
            AppendResult first = store.append(TestMessages.message("Fails", 0, "a"));
            assertThat(first.status()).isEqualTo(AppendStatus.PUT_OK);
            assertThat(failed[0]).isTrue();
            assertThat(store.dispatchedOffset()).isZero(); // where the next dispatch starts again

            AppendResult second = store.append(TestMessages.message("Fails", 0, "b"));
            assertThat(second.status()).isEqualTo(AppendStatus.PUT_OK);
            assertThat(arrivals).containsExactly("Fails@1", "Fails@2");
            assertThat(store.nextOffset("Fails", 0)).isEqualTo(2);
            assertThat(store.getMessages("Fails", 0, 0, 10, 1 << 20, MessageFilterPredicate.ALL).views())
                .extracting(v -> TestMessages.text(v.body())).containsExactly("a", "b");
        }
    }

    @Test
    void listenerThatAppendsDoesNotDispatchInsideItsOwnDispatch() {
        List<String> arrivals = new CopyOnWriteArrayList<>();
        MessageStore[] holder = new MessageStore[1];
        try (MessageStore store = MessageStore.builder(TestMessages.smallConfig(dir).build())
            .threadFactory(NO_DISPATCH_THREAD)
            .arrivalListener((topic, queueId, next, tags, ts) -> {
                arrivals.add(topic + "@" + next);
                if (topic.equals("First")) {
                    holder[0].append(TestMessages.message("Echo", 0, "from the listener"));
                }
            })
            .open()) {
            holder[0] = store;
            store.append(TestMessages.message("First", 0, "a"));
            assertThat(arrivals).containsExactly("First@1"); // the echo waits: no dispatch nested in a dispatch
            assertThat(store.dispatchedOffset()).isLessThan(store.commitLogEndOffset());
            store.append(TestMessages.message("Other", 0, "b"));
            assertThat(arrivals).containsExactly("First@1", "Echo@1", "Other@1");
        }
    }
}
