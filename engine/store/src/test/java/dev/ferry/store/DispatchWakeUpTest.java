package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import dev.ferry.format.StoredMessageView;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatch thread does not poll for work: whoever confirms commit-log bytes that no appender dispatched wakes it.
 * Here it sleeps an hour when idle, and each case starts once it has slept a while, so only a wake-up can dispatch in
 * time.
 */
class DispatchWakeUpTest {
    private static final Duration NEVER = Duration.ofHours(1);
    private static final Duration PROMPTLY = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    /** Records the dispatch thread; when {@code holdBack} names a loop, that loop's thread runs nothing. */
    private static final class Threads implements ThreadFactory {
        final AtomicReference<Thread> dispatch = new AtomicReference<>();
        private final String holdBack;

        Threads(String holdBack) {
            this.holdBack = holdBack;
        }

        @Override
        public Thread newThread(Runnable task) {
            String role = task.toString();
            Thread thread = role.equals(holdBack) ? new Thread(() -> { }) : new Thread(task, role);
            thread.setDaemon(true);
            if (role.equals("ferry-store-dispatch")) {
                dispatch.set(thread);
            }
            return thread;
        }

        /**
         * Waits until the dispatch thread has found nothing to do and sleeps: parked for 50 ms on end, seen every
         * 5 ms (a thread shows as parked for a moment even when a pending wake-up lets it go on at once).
         */
        void awaitDispatchAsleep() {
            await().pollInterval(Duration.ofMillis(5)).during(Duration.ofMillis(50)).atMost(PROMPTLY)
                .until(() -> dispatch.get().getState() == Thread.State.TIMED_WAITING);
        }
    }

    /** A store whose dispatch thread comes from {@code threads} and sleeps an hour when idle. */
    private static MessageStore.Builder sleepyStore(StoreConfig config, Threads threads) {
        return MessageStore.builder(config).threadFactory(threads).dispatchIdleWait(NEVER);
    }

    private MessageStore open(StoreConfig config, Threads threads) {
        return sleepyStore(config, threads).open();
    }

    @Test
    void appendTooLargeToDispatchInlineWakesTheDispatchThread() {
        StoreConfig config = TestMessages.smallConfig(dir).commitLogSegmentSize(1 << 20)
            .maxMessageBodySize(256 << 10).build();
        Threads threads = new Threads(null);
        try (MessageStore store = open(config, threads)) {
            threads.awaitDispatchAsleep();
            store.append(MessageToStore.builder("Large", 0, new byte[(int) Dispatcher.MOST_DISPATCHED_INLINE + 1])
                .build());
            await().atMost(PROMPTLY).until(() -> store.nextOffset("Large", 0) == 1);
        }
    }

    @Test
    void forceUnderSyncFlushWakesTheDispatchThread() {
        Threads threads = new Threads(null);
        try (MessageStore store = open(TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build(),
                threads)) {
            threads.awaitDispatchAsleep();
            assertThat(store.append(TestMessages.message("Forced", 0, "a")).status()).isEqualTo(AppendStatus.PUT_OK);
            await().atMost(PROMPTLY).until(() -> store.nextOffset("Forced", 0) == 1);
        }
    }

    @Test
    void flushFromOutsideTheGroupCommitWakesTheDispatchThread() throws Exception {
        Threads threads = new Threads("ferry-store-group-commit"); // only the outside flush can force
        try (MessageStore store = open(TestMessages.smallConfig(dir).flushMode(FlushMode.SYNC_FLUSH).build(),
                threads)) {
            threads.awaitDispatchAsleep();
            CompletableFuture<AppendResult> append = store.appendAsync(TestMessages.message("Flushed", 0, "a"));
            assertThat(append).isNotDone();
            store.flush();
            assertThat(append.get(5, TimeUnit.SECONDS).status()).isEqualTo(AppendStatus.PUT_OK);
            await().atMost(PROMPTLY).until(() -> store.nextOffset("Flushed", 0) == 1);
        }
    }

    @Test
    void topicDeletionWakesTheDispatchThread() throws Exception {
        Threads threads = new Threads(null);
        try (MessageStore store = open(TestMessages.smallConfig(dir).build(), threads)) {
            store.append(TestMessages.message("Doomed", 0, "a"));
            store.append(TestMessages.message("Doomed", 1, "b"));
            threads.awaitDispatchAsleep();
            assertThat(store.deleteTopic("Doomed").get(5, TimeUnit.SECONDS)).isEqualTo(2);
        }
    }

    @Test
    void repairLongerThanOneChunkGoesOnWithoutAWakeUpPerChunk() throws Exception {
        Path blocker = TestMessages.blockQueueDirectory(dir, "Blocked");
        ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z").toEpochMilli());
        StoreConfig config = TestMessages.smallConfig(dir).commitLogSegmentSize(1 << 20)
            .maxMessageBodySize(256 << 10).build();
        Threads threads = new Threads(null);
        try (MessageStore store = sleepyStore(config, threads).clock(clock).open()) {
            store.append(TestMessages.message("Blocked", 0, "b1"));
            byte[] large = new byte[200 << 10];
            // more than two chunks: the round woken dispatches a message too, the ones after it repair only
            while (store.commitLogEndOffset() < 2 * Dispatcher.REPAIR_CHUNK + (1 << 20)) {
                store.append(MessageToStore.builder("Good", 0, large).build());
            }
            store.append(TestMessages.message("Blocked", 0, "b2"));
            await().atMost(PROMPTLY).until(() -> store.dispatchedOffset() == store.commitLogEndOffset());
            assertThat(store.setAsideQueues()).containsExactly("Blocked:0");

            Files.delete(blocker);
            clock.advance(Dispatcher.FIRST_REPAIR_DELAY);
            threads.awaitDispatchAsleep();
            store.append(TestMessages.message("Good", 0, "wakes it once")); // refused inline while a queue waits
            await().atMost(PROMPTLY).until(() -> store.setAsideQueues().isEmpty());
            assertThat(store.nextOffset("Blocked", 0)).isEqualTo(2);
        }
    }

    @Test
    void replicatedAppendThatFailsPartWayWakesTheDispatchThreadForWhatItWrote() {
        AtomicLong usable = new AtomicLong(1L << 40);
        Threads threads = new Threads(null);
        StoreConfig slaveConfig = TestMessages.smallConfig(dir.resolve("slave"))
            .diskCleanRatio(0.99).diskRejectRatio(0.99).build();
        try (MessageStore master = MessageStore.builder(TestMessages.smallConfig(dir.resolve("master")).build())
                .open();
             MessageStore slave = sleepyStore(slaveConfig, threads).diskSpace(DiskSpace.of(1L << 40, usable::get))
                .open()) {
            while (master.commitLogEndOffset() < 64 * 1024) { // into a second segment
                master.append(TestMessages.message("Copied", 0, "x".repeat(1000)));
            }
            List<StoredMessageView> sent = master.getMessages("Copied", 0, 0, 1000, 1 << 20,
                MessageFilterPredicate.ALL).views();
            long at = slave.appendReplicated(0, master.replicaChunk(0, sent.get(0).totalSize()).orElseThrow());
            ByteBuffer restOfFirst = master.replicaChunk(at, Integer.MAX_VALUE).orElseThrow();
            long firstEnd = at + restOfFirst.remaining();
            ByteBuffer second = master.replicaChunk(firstEnd, Integer.MAX_VALUE).orElseThrow();
            ByteBuffer both = ByteBuffer.allocate(restOfFirst.remaining() + second.remaining());
            both.put(restOfFirst).put(second).flip();
            long inFirstSegment = sent.stream().filter(view -> view.physicalOffset() < firstEnd).count();
            threads.awaitDispatchAsleep();

            usable.set(0); // the second segment cannot be made: the call fails after writing the first one's rest
            assertThatThrownBy(() -> slave.appendReplicated(at, both)).isInstanceOf(IllegalStateException.class);
            await().atMost(PROMPTLY).until(() -> slave.nextOffset("Copied", 0) == inFirstSegment);
        }
    }

    @Test
    void replicatedAppendWakesTheDispatchThread() {
        Threads threads = new Threads(null);
        try (MessageStore master = MessageStore.builder(TestMessages.smallConfig(dir.resolve("master")).build())
                .open();
             MessageStore slave = open(TestMessages.smallConfig(dir.resolve("slave")).build(), threads)) {
            for (int i = 0; i < 3; i++) {
                master.append(TestMessages.message("Copied", 0, "m" + i));
            }
            threads.awaitDispatchAsleep();
            ByteBuffer chunk = master.replicaChunk(0, Integer.MAX_VALUE).orElseThrow();
            assertThat(slave.appendReplicated(0, chunk)).isEqualTo(master.commitLogEndOffset());
            await().atMost(PROMPTLY).until(() -> slave.nextOffset("Copied", 0) == 3);
        }
    }
}
