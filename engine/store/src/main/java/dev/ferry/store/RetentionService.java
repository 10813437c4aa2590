package dev.ferry.store;

import dev.ferry.format.Clock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Deletes old commit-log segments, on the retention thread: every segment (never the active one) whose last write is
 * older than the retention time (within the delete hours, when there are any, or while the disk is above the clean
 * ratio, as Apache's deleteWhen), plus the oldest remaining one while the disk is above the clean ratio. Only segments
 * already flushed and dispatched go, and expiry never passes the floor another part sets (a pending timer's message
 * stays until it fires; only a tight disk deletes it). Then consume queues and the index drop what pointed into them, so their min
 * offsets advance and reads below them answer {@link GetMessageStatus#OFFSET_TOO_SMALL}.
 */
final class RetentionService implements DutyLoop.Duty {
    private static final System.Logger LOG = System.getLogger(RetentionService.class.getName());

    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final Dispatcher dispatcher;
    private final DiskSpace disk;
    private final Clock clock;
    private final Duration retention;
    private final double cleanRatio;
    private final Set<Integer> deleteHours;
    private final ZoneId deleteZone;
    /** Where expiry stops: segments reaching past it hold messages another part still needs (pending timers). */
    private volatile LongSupplier expiryFloor = () -> Long.MAX_VALUE;

    RetentionService(CommitLog commitLog, ConsumeQueueTable consumeQueues, MessageIndex index, Dispatcher dispatcher,
                     DiskSpace disk, Clock clock, Duration retention, double cleanRatio, Set<Integer> deleteHours,
                     ZoneId deleteZone) {
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.dispatcher = dispatcher;
        this.disk = disk;
        this.clock = clock;
        this.retention = retention;
        this.cleanRatio = cleanRatio;
        this.deleteHours = deleteHours;
        this.deleteZone = deleteZone;
    }

    void expiryFloor(LongSupplier value) {
        this.expiryFloor = value;
    }

    @Override
    public int doWork() {
        deleteExpired();
        return 0;
    }

    /** One retention pass; returns how many commit-log segments it deleted. */
    synchronized int deleteExpired() {
        long expiredBefore = clock.millis() - retention.toMillis();
        long safeLimit = Math.min(commitLog.flushedOffset(), dispatcher.dispatchedOffset());
        boolean diskTight = disk.usedRatio() > cleanRatio;
        boolean deleteHour = deleteHours.isEmpty()
                || deleteHours.contains(clock.instant().atZone(deleteZone).getHour());
        long floor = expiryFloor.getAsLong();
        int[] forced = {0};
        int deleted = commitLog.file().deleteHeadWhile(segment -> {
            if (segment.baseOffset() + segment.size() > safeLimit) {
                return false;
            }
            if (segment.lastWriteTimestamp() < expiredBefore && (deleteHour || diskTight)
                    && segment.baseOffset() + segment.size() <= floor) {
                return true;
            }
            return diskTight && forced[0]++ == 0;
        });
        if (deleted > 0) {
            long minOffset = commitLog.minOffset();
            consumeQueues.advanceMinOffset(minOffset);
            index.deleteBelow(minOffset);
            LOG.log(Level.INFO, "retention deleted {0} commit-log segments; min offset now {1}", deleted, minOffset);
        }
        return deleted;
    }
}
