package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ThreadRoles;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushTest {
    @TempDir
    Path dir;

    @Test
    void shouldFlushAsynchronouslyWithinTheInterval() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.ASYNC_FLUSH)
            .flushInterval(Duration.ofMillis(100)).build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            AppendResult result = store.append(TestMessages.message("Async", 0, "a"));
            assertThat(result.status()).isEqualTo(AppendStatus.PUT_OK);
            await().atMost(Duration.ofSeconds(5))
                .until(() -> store.commitLogFlushedOffset() >= result.nextPhysicalOffset());
        }
    }

    @Test
    void shouldReturnSyncAppendOnlyAfterItsBytesAreDurable() throws Exception {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            ExecutorService writers = Executors.newFixedThreadPool(16);
            try {
                List<Future<Boolean>> durableAtReturn = new ArrayList<>();
                for (int w = 0; w < 16; w++) {
                    int writer = w;
                    durableAtReturn.add(writers.submit(() -> {
                        boolean allDurable = true;
                        for (int i = 0; i < 40; i++) {
                            AppendResult r = store.append(TestMessages.message("Sync", writer % 4, writer + ":" + i));
                            allDurable &= r.status() == AppendStatus.PUT_OK
                                && store.commitLogFlushedOffset() >= r.nextPhysicalOffset();
                        }
                        return allDurable;
                    }));
                }
                for (Future<Boolean> f : durableAtReturn) {
                    assertThat(f.get()).isTrue();
                }
            } finally {
                writers.shutdownNow();
            }
            assertThat(store.commitLogForces()).as("group commit shares forces").isLessThan(16 * 40 / 2);
        }
    }

    @Test
    void shouldCompleteAsyncAppendsUnderSyncFlushOnlyOnceDurableSharingForces() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            List<CompletableFuture<Boolean>> durableAtCompletion = new ArrayList<>();
            long forcesBefore = store.commitLogForces();
            for (int i = 0; i < 400; i++) {
                durableAtCompletion.add(store.appendAsync(TestMessages.message("SyncAsync", i % 4, "m" + i))
                    .thenApply(r -> r.status() == AppendStatus.PUT_OK
                        && store.commitLogFlushedOffset() >= r.nextPhysicalOffset()));
            }

            for (CompletableFuture<Boolean> f : durableAtCompletion) {
                assertThat(f).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(true);
            }
            // one thread appends without waiting, so every force carries what arrived while the last one ran
            assertThat(store.commitLogForces() - forcesBefore).as("forces").isLessThan(400 / 4);
            await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("SyncAsync", 3) == 100);
        }
    }

    @Test
    void shouldCompleteAsyncAppendsAtOnceUnderAsyncFlush() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.ASYNC_FLUSH)
            .flushInterval(Duration.ofHours(1)).build();
        // the flush loop's first pass (at its start) waits until the append has been looked at
        CountDownLatch flushMayStart = new CountDownLatch(1);
        ThreadFactory threads = task -> new Thread(() -> {
            if (ThreadRoles.roleOf(task).filter("ferry-store-flush"::equals).isPresent()) {
                try {
                    flushMayStart.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            task.run();
        });
        try (MessageStore store = MessageStore.builder(config).threadFactory(threads).open()) {
            try {
                CompletableFuture<AppendResult> appended =
                    store.appendAsync(TestMessages.message("AsyncNow", 0, "a"));

                assertThat(appended).isCompleted();
                assertThat(appended.join().status()).isEqualTo(AppendStatus.PUT_OK);
                assertThat(store.commitLogFlushedOffset()).isLessThan(appended.join().nextPhysicalOffset());
            } finally {
                flushMayStart.countDown(); // before the store closes, which waits for the loop
            }
        }
    }

    @Test
    void shouldCompleteARejectedAsyncAppendAtOnceWithItsReason() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).maxMessageBodySize(10)
            .build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            CompletableFuture<AppendResult> rejected = store.appendAsync(
                TestMessages.message("TooLarge", 0, "eleven-byte"));

            assertThat(rejected).isCompleted();
            assertThat(rejected.join().status()).isEqualTo(AppendStatus.MESSAGE_TOO_LARGE);
            assertThat(store.commitLogEndOffset()).isZero();
        }
    }

    @Test
    void shouldCompleteEveryAsyncAppendByTheTimeCloseReturns() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        List<CompletableFuture<AppendResult>> appended = new ArrayList<>();
        MessageStore store = MessageStore.builder(config).open();
        for (int i = 0; i < 200; i++) {
            appended.add(store.appendAsync(TestMessages.message("Closing", 0, "m" + i)));
        }

        store.close();

        assertThat(appended).allSatisfy(f -> {
            assertThat(f).isCompleted();
            assertThat(f.join().status()).isEqualTo(AppendStatus.PUT_OK);
        });
        assertThat(store.commitLogFlushedOffset()).isEqualTo(appended.get(199).join().nextPhysicalOffset());
    }

    @Test
    void shouldNotDispatchBeyondFlushedOffsetUnderSyncFlush() {
        StoreConfig config = TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build();
        try (MessageStore store = MessageStore.builder(config).open()) {
            for (int i = 0; i < 50; i++) {
                store.append(TestMessages.message("SyncRead", 0, "m" + i));
                assertThat(store.dispatchedOffset()).isLessThanOrEqualTo(store.commitLogFlushedOffset());
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset("SyncRead", 0) == 50);
        }
    }
}
