package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {
    private static final long DISK = 100L << 30;

    @TempDir
    Path dir;
    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final AtomicLong usable = new AtomicLong(DISK / 2);

    private MessageStore open() {
        StoreConfig config = TestMessages.smallConfig(dir).diskCleanRatio(0.75).diskRejectRatio(0.90)
            .diskCheckInterval(Duration.ZERO).retentionCheckInterval(Duration.ofHours(1)).build();
        return MessageStore.builder(config).clock(clock).diskSpace(DiskSpace.of(DISK, usable::get)).open();
    }

    private static List<AppendResult> fill(MessageStore store, int count) {
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            results.add(store.append(TestMessages.message("Keep", 0, i + "-" + "x".repeat(1000), null, "key" + i)));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset()
            && store.commitLogFlushedOffset() == store.commitLogEndOffset());
        return results;
    }

    @Test
    void shouldDeleteExpiredSegmentsAndAnswerOffsetTooSmall() {
        try (MessageStore store = open()) {
            fill(store, 200);
            assertThat(store.deleteExpiredSegments()).isZero();
            clock.advance(Duration.ofHours(73));
            AppendResult fresh = store.append(TestMessages.message("Keep", 0, "fresh"));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset()
                && store.commitLogFlushedOffset() == store.commitLogEndOffset());

            assertThat(store.deleteExpiredSegments()).isEqualTo(3);
            long minQueueOffset = store.minOffset("Keep", 0);
            assertThat(store.commitLogMinOffset()).isEqualTo(3 * 64 * 1024);
            assertThat(minQueueOffset).isPositive();
            GetMessageResult tooSmall = store.getMessages("Keep", 0, 0, 10, 1 << 20, MessageFilterPredicate.ALL);
            assertThat(tooSmall.status()).isEqualTo(GetMessageStatus.OFFSET_TOO_SMALL);
            assertThat(tooSmall.nextBeginOffset()).isEqualTo(minQueueOffset);
            GetMessageResult first = store.getMessages("Keep", 0, minQueueOffset, 1, 1 << 20,
                MessageFilterPredicate.ALL);
            assertThat(first.status()).isEqualTo(GetMessageStatus.FOUND);
            assertThat(first.views().get(0).physicalOffset()).isGreaterThanOrEqualTo(store.commitLogMinOffset());
            assertThat(store.queryMessagesByKey("Keep", "key0", 10, 0, Long.MAX_VALUE).views()).isEmpty();
            assertThat(store.queryMessagesByKey("Keep", "key199", 10, 0, Long.MAX_VALUE).views()).hasSize(1);
            assertThat(store.messageAt(fresh.physicalOffset())).isPresent();
        }
    }

    @Test
    void shouldDeleteExpiredSegmentsOnlyWithinTheDeleteHoursUnlessTheDiskIsTight() {
        // 1_700_000_000_000 is 22:13 UTC; 73 h later it is 23:13, 5 h after that 04:13
        StoreConfig config = TestMessages.smallConfig(dir).diskCleanRatio(0.75).diskRejectRatio(0.90)
            .diskCheckInterval(Duration.ZERO).retentionCheckInterval(Duration.ofHours(1))
            .deleteHours(java.util.Set.of(4)).deleteZone(java.time.ZoneOffset.UTC).build();
        try (MessageStore store = MessageStore.builder(config).clock(clock)
            .diskSpace(DiskSpace.of(DISK, usable::get)).open()) {
            fill(store, 200);
            clock.advance(Duration.ofHours(73));
            store.append(TestMessages.message("Keep", 0, "fresh"));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset()
                && store.commitLogFlushedOffset() == store.commitLogEndOffset());
            assertThat(store.deleteExpiredSegments()).as("expired, but not the hour").isZero();

            usable.set(DISK / 5);
            assertThat(store.deleteExpiredSegments()).as("a tight disk does not wait for the hour").isEqualTo(3);
            usable.set(DISK / 2);
            fill(store, 100);
            clock.advance(Duration.ofHours(73));
            store.append(TestMessages.message("Keep", 0, "fresher"));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.dispatchedOffset() == store.commitLogEndOffset()
                && store.commitLogFlushedOffset() == store.commitLogEndOffset());
            // 22:13 + 73 h + 73 h is 00:13
            assertThat(store.deleteExpiredSegments()).isZero();
            clock.advance(Duration.ofHours(4));
            assertThat(store.deleteExpiredSegments()).as("within 04:00..04:59").isPositive();
        }
        assertThat(config.deleteHours()).containsExactly(4);
    }

    @Test
    void shouldKeepMinOffsetsAfterReopen() {
        try (MessageStore store = open()) {
            fill(store, 200);
            clock.advance(Duration.ofHours(73));
            store.append(TestMessages.message("Keep", 0, "fresh"));
            await().atMost(Duration.ofSeconds(5)).until(() -> store.commitLogFlushedOffset() == store
                .commitLogEndOffset() && store.dispatchedOffset() == store.commitLogEndOffset());
            store.deleteExpiredSegments();
        }
        try (MessageStore store = open()) {
            assertThat(store.commitLogMinOffset()).isEqualTo(3 * 64 * 1024);
            assertThat(store.getMessages("Keep", 0, 0, 1, 1 << 20, MessageFilterPredicate.ALL).status())
                .isEqualTo(GetMessageStatus.OFFSET_TOO_SMALL);
            assertThat(store.nextOffset("Keep", 0)).isEqualTo(201);
        }
    }

    @Test
    void shouldDeleteOldestSegmentEarlyWhenDiskAboveCleanRatio() {
        try (MessageStore store = open()) {
            fill(store, 200);
            usable.set(DISK / 5);
            assertThat(store.deleteExpiredSegments()).isEqualTo(1);
            assertThat(store.commitLogMinOffset()).isEqualTo(64 * 1024);
        }
    }

    @Test
    void shouldRejectAppendsWithDiskFullInsteadOfWriting() {
        try (MessageStore store = open()) {
            store.append(TestMessages.message("Full", 0, "before"));
            long before = store.commitLogEndOffset();
            usable.set(DISK / 20);
            AppendResult rejected = store.append(TestMessages.message("Full", 0, "while full"));
            assertThat(rejected.status()).isEqualTo(AppendStatus.DISK_FULL);
            assertThat(rejected.detail()).contains("disk used ratio");
            assertThat(store.commitLogEndOffset()).isEqualTo(before);
            usable.set(DISK / 2);
            AppendResult after = store.append(TestMessages.message("Full", 0, "after"));
            assertThat(after.status()).isEqualTo(AppendStatus.PUT_OK);
            assertThat(after.queueOffset()).isEqualTo(1);
        }
    }

    @Test
    void shouldRejectSegmentRollWhenNewSegmentWouldNotFit() {
        AtomicLong smallDiskUsable = new AtomicLong(50 * 1024);
        StoreConfig config = TestMessages.smallConfig(dir).diskCleanRatio(0.75).diskRejectRatio(0.90)
            .diskCheckInterval(Duration.ofHours(1)).build();
        try (MessageStore store = MessageStore.builder(config).clock(clock)
            .diskSpace(DiskSpace.of(100 * 1024, smallDiskUsable::get)).open()) {
            List<AppendStatus> statuses = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                statuses.add(store.append(TestMessages.message("Full", 0, "y".repeat(1000))).status());
            }
            assertThat(statuses).contains(AppendStatus.PUT_OK, AppendStatus.DISK_FULL);
            assertThat(store.commitLogEndOffset()).isLessThanOrEqualTo(64 * 1024);
        }
    }
}
