package dev.ferry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.format.ManualClock;
import dev.ferry.format.StoredMessageView;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Channel-written segments (sync flush) collect appended entries in memory until the flush writes them: readers
 * never see them before, and a failed write stops the log instead of leaving a hole behind newer entries.
 */
class PendingWritesTest {
    private static final Clock CLOCK = Clock.system();
    private static final int SEGMENT = 64 * 1024;

    @TempDir
    Path dir;

    private final List<SegmentedFile> opened = new ArrayList<>();

    @AfterEach
    void closeFiles() {
        opened.forEach(SegmentedFile::close);
    }

    private CommitLog commitLog() {
        SegmentedFile file = new SegmentedFile(dir.resolve("commitlog"), SEGMENT, SegmentWrites.CHANNEL);
        opened.add(file);
        return new CommitLog(file, CLOCK,
            new DiskGuard(DiskSpace.of(1L << 40, () -> 1L << 39), 0.9, Duration.ZERO, CLOCK));
    }

    private static AppendResult append(CommitLog log, String body) {
        return log.append(PreparedMessage.prepare(TestMessages.message("P", 0, body), 16 * 1024));
    }

    @Test
    void shouldServeAnEntryOnlyOnceTheFlushHasWrittenIt() {
        CommitLog log = commitLog();
        AppendResult first = append(log, "first");

        assertThat(first.status()).isEqualTo(AppendStatus.PUT_OK);
        assertThat(log.writtenOffset()).isEqualTo(first.physicalOffset() + first.size());
        assertThat(log.slice(first.physicalOffset(), first.size())).isEmpty();

        assertThat(log.flush()).isEqualTo(first.physicalOffset() + first.size());
        assertThat(log.messageAt(first.physicalOffset())).map(StoredMessageView::queueOffset).contains(0L);
    }

    @Test
    void shouldWriteEveryPendingEntryAndTheBlankMarkerAcrossRolls() {
        CommitLog log = commitLog();
        List<AppendResult> results = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            results.add(append(log, "entry-" + i + "-" + "x".repeat(700)));
            if (i % 7 == 0) {
                log.flush();
            }
        }
        long end = log.flush();

        assertThat(results).allMatch(r -> r.status() == AppendStatus.PUT_OK);
        assertThat(results.get(results.size() - 1).physicalOffset()).isGreaterThan(2L * SEGMENT);
        assertThat(end).isEqualTo(log.writtenOffset());
        List<Long> queueOffsets = new ArrayList<>();
        log.forEachEntry(0, end, view -> queueOffsets.add(view.queueOffset()));
        assertThat(queueOffsets).hasSize(200).isSorted().startsWith(0L).endsWith(199L);
    }

    @Test
    void shouldRefuseAppendsAndNeverCountLostEntriesAsDurableAfterAFailedWrite() {
        CommitLog log = commitLog();
        AppendResult written = append(log, "written");
        long durable = log.flush();
        AppendResult lost = append(log, "lost");
        log.file().last().orElseThrow().close(); // the next write through the segment's channel fails

        assertThatThrownBy(log::flush).isInstanceOf(UncheckedIOException.class);

        assertThat(log.flush()).isEqualTo(durable);
        assertThat(log.flushedOffset()).isEqualTo(durable);
        AppendResult refused = append(log, "after");
        assertThat(refused.status()).isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
        assertThat(refused.detail()).contains("stopped after a failed write");
        assertThat(log.slice(lost.physicalOffset(), lost.size())).isEmpty();
        assertThat(log.slice(written.physicalOffset(), written.size())).isPresent();
    }

    @Test
    void shouldStopTheLogAndKeepTheFlushedOffsetAfterAFailedForce() {
        CommitLog log = commitLog();
        long durable = log.flush();
        List<AppendResult> results = new ArrayList<>();
        while (log.file().segments().size() < 2) { // a roll writes the full segment out, unforced
            results.add(append(log, "entry-" + results.size() + "-" + "x".repeat(700)));
        }
        log.file().segments().get(0).close(); // written, so only its force can fail now

        assertThatThrownBy(log::flush).isInstanceOf(UncheckedIOException.class);

        assertThat(log.failed()).isTrue();
        assertThat(log.flushedOffset()).isEqualTo(durable);
        assertThat(log.flush()).isEqualTo(durable);
        AppendResult refused = append(log, "after");
        assertThat(refused.status()).isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
        assertThat(refused.detail()).contains("stopped after a failed force");
    }

    @Test
    void shouldReleaseParkedAndPendingWaitersAtOnceWhenAWriteFails() throws Exception {
        CommitLog log = commitLog();
        GroupCommitService groupCommit = new GroupCommitService(log, Duration.ZERO, () -> { }, CLOCK);
        DutyLoop loop = new DutyLoop("test-group-commit", groupCommit, Duration.ofMillis(10),
            new DaemonThreads("pending-writes-test"));
        groupCommit.attach(loop);
        AppendResult durable = append(log, "durable");
        loop.start();
        try {
            assertThat(groupCommit.awaitDurable(durable, Duration.ofSeconds(30))).isEqualTo(durable);

            log.file().last().orElseThrow().close(); // before the append, so no flush can write it first
            AppendResult lost = append(log, "lost");
            assertThat(lost.status()).isEqualTo(AppendStatus.PUT_OK);
            long started = System.nanoTime();
            CompletableFuture<AppendResult> pending = groupCommit.whenDurable(lost, Duration.ofSeconds(30));
            AppendResult outcome = groupCommit.awaitDurable(lost, Duration.ofSeconds(30));

            assertThat(outcome.status()).isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
            assertThat(pending).succeedsWithin(Duration.ofSeconds(10)).extracting(AppendResult::status)
                .isEqualTo(AppendStatus.SERVICE_NOT_AVAILABLE);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
            assertThat(log.failed()).isTrue();
            assertThat(log.flushedOffset()).isEqualTo(durable.nextPhysicalOffset());
        } finally {
            loop.close();
        }
        assertThat(loop.failures()).isEqualTo(1);
    }

    /** A group commit whose loop never runs: only what the test calls moves it, on {@code clock}. */
    private static GroupCommitService idleGroupCommit(CommitLog log, Clock clock) {
        GroupCommitService groupCommit = new GroupCommitService(log, Duration.ZERO, () -> { }, clock);
        groupCommit.attach(new DutyLoop("test-idle-group-commit", groupCommit, Duration.ofMillis(10),
            new DaemonThreads("pending-writes-test")));
        return groupCommit;
    }

    @Test
    void shouldAnswerAnOverdueFutureWithFlushDiskTimeout() {
        CommitLog log = commitLog();
        ManualClock clock = new ManualClock();
        GroupCommitService groupCommit = idleGroupCommit(log, clock);
        AppendResult stored = append(log, "never forced");

        CompletableFuture<AppendResult> pending = groupCommit.whenDurable(stored, Duration.ofMillis(500));
        clock.advance(Duration.ofMillis(499));
        groupCommit.expireOverdue();
        assertThat(pending).as("not overdue yet").isNotDone();

        clock.advance(Duration.ofMillis(1));
        groupCommit.expireOverdue();
        assertThat(pending).isDone();
        assertThat(pending.join().status()).isEqualTo(AppendStatus.FLUSH_DISK_TIMEOUT);
        assertThat(pending.join().detail()).contains("not flushed within");
    }

    @Test
    void shouldReleaseWaitersThatAFlushFromOutsideCovered() {
        CommitLog log = commitLog();
        GroupCommitService groupCommit = idleGroupCommit(log, CLOCK);
        AppendResult stored = append(log, "flushed by the caller");
        CompletableFuture<AppendResult> pending = groupCommit.whenDurable(stored, Duration.ofSeconds(30));

        log.flush();
        assertThat(groupCommit.doWork()).as("nothing left to force").isZero();

        assertThat(pending).isCompletedWithValue(stored);
    }
}
