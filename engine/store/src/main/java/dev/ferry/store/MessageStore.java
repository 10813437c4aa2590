package dev.ferry.store;

import dev.ferry.format.AtomicFile;
import dev.ferry.format.Clock;
import dev.ferry.format.DaemonThreads;
import dev.ferry.format.DurableDirectories;
import dev.ferry.format.StoredMessageView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The message store: a commit log, consume queues per topic and queue id, a key index, flushing, recovery and
 * retention behind one facade.
 *
 * <p>Threads (all from the injected {@link ThreadFactory}): appends run on the callers' threads, one at a time inside
 * the commit log; a flush thread runs the {@link FlushService} (async) or the {@link GroupCommitService} (sync, which
 * also completes the futures of {@link #appendAsync}); a dispatch thread runs the {@link Dispatcher}, which alone
 * writes consume queues and the index and calls the {@link MessageArrivalListener} (under async flush an appender that
 * finds it idle dispatches what it wrote itself, see {@link Dispatcher}); a checkpoint thread forces consume
 * queues and index and writes the {@link Checkpoint}; a retention thread runs the {@link RetentionService}; under sync
 * flush a zero-fill thread makes the next commit-log segment ahead of time ({@link SegmentZeroFiller}) and another
 * answers {@link #appendAsync} futures whose sync-flush timeout passed. Reads run on the callers' threads.
 * {@link #open} recovers on the calling thread before any of these start.
 */
public final class MessageStore implements MessageWriter, MessageReader, ReplicationLog, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MessageStore.class.getName());
    static final String ABORT_FILE = "abort";
    /**
     * How long the dispatch thread sleeps with nothing to do unless woken. Whoever confirms commit-log bytes wakes it
     * (an appender that does not dispatch itself, the group commit after each force, a replicated append, a flush under
     * sync flush), as does a topic deletion, which makes work due; a round that got anywhere (a repair chunk too) is
     * followed by the next at once. So this paces only retries after a failed read and the first look at a set-aside
     * queue whose repair is due: a 1 ms wait made an idle broker wake a thousand times a second for nothing.
     */
    static final Duration DISPATCH_IDLE_WAIT = Duration.ofMillis(100);

    private final StoreConfig config;
    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final Dispatcher dispatcher;
    private final GroupCommitService groupCommit;
    private final CheckpointService checkpoints;
    private final RetentionService retention;
    private final ConsumeQueueReader reader;
    private final MessageFinder finder;
    private final RecoveryReport recoveryReport;
    private final List<DutyLoop> loops;
    private final DutyLoop dispatchLoop;
    private final SegmentedFile commitLogFile;
    private final SegmentZeroFiller zeroFiller;
    private volatile boolean closed;

    private MessageStore(Builder builder) {
        StoreConfig c = builder.config;
        this.config = c;
        Path dir = c.storeDir();
        createDirectories(dir);
        createDirectories(c.commitLogDir());
        // the commit log is what fills a disk, so its file system is the one measured
        DiskSpace disk = builder.diskSpace != null ? builder.diskSpace : DiskSpace.of(c.commitLogDir());
        boolean sync = c.flushMode() == FlushMode.SYNC_FLUSH;
        commitLogFile = new SegmentedFile(c.commitLogDir(), c.commitLogSegmentSize(),
            sync ? SegmentWrites.CHANNEL : SegmentWrites.MAPPED);
        commitLog = new CommitLog(commitLogFile, builder.clock,
            new DiskGuard(disk, c.diskRejectRatio(), c.diskCheckInterval(), builder.clock));
        consumeQueues = new ConsumeQueueTable(dir.resolve("consumequeue"), c.consumeQueueEntriesPerSegment(),
            builder.clock);
        index = new MessageIndex(dir.resolve("index"), c.indexHashSlots(), c.indexMaxEntries(), builder.clock);
        dispatcher = new Dispatcher(commitLog, consumeQueues, index,
            sync ? commitLog::flushedOffset : commitLog::writtenOffset, builder.arrivalListener, builder.clock);

        commitLogFile.load(builder.clock.millis());
        consumeQueues.load();
        index.load();
        Path abortMarker = dir.resolve(ABORT_FILE);
        AtomicFile checkpointFile = Checkpoint.file(dir);
        recoveryReport = new StoreRecovery(checkpointFile, commitLogFile, consumeQueues, index, dispatcher)
            .recover(!Files.exists(abortMarker));
        Map<QueueKey, Long> nextQueueOffsets = consumeQueues.nextOffsets();
        dispatcher.setAsideNextOffsets().forEach((queue, next) -> nextQueueOffsets.merge(queue, next, Math::max));
        commitLog.restore(recoveryReport.validEndOffset(), nextQueueOffsets);
        createAbortMarker(abortMarker);

        checkpoints = new CheckpointService(checkpointFile, commitLog, consumeQueues, index, dispatcher, builder.clock,
            c.indexFlushInterval());
        retention = new RetentionService(commitLog, consumeQueues, index, dispatcher, disk, builder.clock,
            c.fileRetention(), c.diskCleanRatio(), c.deleteHours(), c.deleteZone());
        reader = new ConsumeQueueReader(consumeQueues, commitLog, c.maxEntriesScannedPerRead());
        finder = new MessageFinder(index, commitLog);

        ThreadFactory threads = builder.threadFactory;
        dispatchLoop = new DutyLoop("ferry-store-dispatch", dispatcher, builder.dispatchIdleWait, threads);
        DutyLoop flushLoop;
        if (sync) {
            groupCommit = new GroupCommitService(commitLog, c.groupCommitLinger(), dispatchLoop::wake, builder.clock);
            flushLoop = new DutyLoop("ferry-store-group-commit", groupCommit, Duration.ofMillis(10), threads);
            groupCommit.attach(flushLoop);
        } else {
            groupCommit = null;
            flushLoop = new DutyLoop("ferry-store-flush", new FlushService(commitLog), c.flushInterval(), threads);
        }
        List<DutyLoop> all = new ArrayList<>(List.of(flushLoop, dispatchLoop,
            new DutyLoop("ferry-store-checkpoint", checkpoints, c.flushInterval(), threads),
            new DutyLoop("ferry-store-retention", retention, c.retentionCheckInterval(), threads)));
        if (sync) {
            zeroFiller = new SegmentZeroFiller(commitLogFile, commitLog::writtenOffset, disk, c.diskRejectRatio());
            all.add(new DutyLoop("ferry-store-zero-fill", zeroFiller, Duration.ofMillis(100), threads));
            all.add(new DutyLoop("ferry-store-sync-flush-timeouts", () -> {
                groupCommit.expireOverdue();
                return 0;
            }, Duration.ofMillis(100), threads));
        } else {
            zeroFiller = null;
        }
        loops = List.copyOf(all);
        loops.forEach(DutyLoop::start);
    }

    /** A builder for a store with the given configuration; defaults: system clock, named daemon threads. */
    public static Builder builder(StoreConfig config) {
        return new Builder(config);
    }

    private static void createDirectories(Path dir) {
        try {
            DurableDirectories.create(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create store directory " + dir, e);
        }
    }

    private static void createAbortMarker(Path marker) {
        try {
            if (!Files.exists(marker)) {
                Files.createFile(marker);
                // a marker lost to a power loss would make the next start take a crash for a clean shutdown
                DurableDirectories.force(marker.getParent());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create abort marker " + marker, e);
        }
    }

    public StoreConfig config() {
        return config;
    }

    /** What opening found and repaired. */
    public RecoveryReport recoveryReport() {
        return recoveryReport;
    }

    /**
     * Appends one message. Under sync flush, returns only after its bytes are durable (or with
     * {@link AppendStatus#FLUSH_DISK_TIMEOUT}, or {@link AppendStatus#SERVICE_NOT_AVAILABLE} once a failed write or
     * force has stopped the commit log). A rejected message leaves the files untouched.
     */
    public AppendResult append(MessageToStore message) {
        AppendResult result = appendUnflushed(message);
        if (!result.isStored()) {
            return result;
        }
        if (groupCommit != null) {
            return groupCommit.awaitDurable(result, config.syncFlushTimeout());
        }
        dispatchSoon();
        return result;
    }

    /**
     * Appends one message without waiting for the flush: the future completes with what {@link #append} would have
     * returned. A rejection or an append under async flush completes it at once; under sync flush the group-commit
     * thread completes it after the force that covers the message, so what depends on the future runs on that thread
     * and must be brief (a timeout is answered from another thread). Appends made in turn by one thread are stored in
     * that order.
     */
    @Override
    public CompletableFuture<AppendResult> appendAsync(MessageToStore message) {
        AppendResult result = appendUnflushed(message);
        if (!result.isStored()) {
            return CompletableFuture.completedFuture(result);
        }
        if (groupCommit != null) {
            return groupCommit.whenDurable(result, config.syncFlushTimeout());
        }
        dispatchSoon();
        return CompletableFuture.completedFuture(result);
    }

    /**
     * What an append under async flush wrote is dispatched here, now, or by the dispatch thread, woken. The append is
     * stored either way: a dispatch that fails here (a mapped page the disk cannot back, a listener's error) must not
     * fail it, or its producer would send it again; the dispatch thread tries again from where dispatching stopped,
     * and logs what keeps failing.
     */
    private void dispatchSoon() {
        try {
            if (dispatcher.dispatchIfIdle()) {
                return;
            }
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.DEBUG, "dispatching on the appending thread failed; the dispatch thread takes"
                + " over", e);
        }
        dispatchLoop.wake();
    }

    private AppendResult appendUnflushed(MessageToStore message) {
        if (closed) {
            return AppendResult.rejected(AppendStatus.SERVICE_NOT_AVAILABLE, "store is closed");
        }
        try {
            return commitLog.append(PreparedMessage.prepare(message, config.maxMessageBodySize()));
        } catch (MessageRejectedException e) {
            return e.toResult();
        }
    }

    /**
     * Appends what a master replicated (whole stored entries at their master offsets, see
     * {@link CommitLog#appendReplicated}); under sync flush returns once they are durable. Returns the commit log's
     * new end, which is what a slave reports to its master.
     *
     * @throws IllegalArgumentException when the bytes do not continue this commit log as whole, intact entries
     * @throws IllegalStateException    when the store is closed or stopped by a failed write
     */
    @Override
    public long appendReplicated(long offset, ByteBuffer entries) {
        if (closed) {
            throw new IllegalStateException("store is closed");
        }
        long end;
        try {
            end = commitLog.appendReplicated(offset, entries);
        } catch (RuntimeException e) {
            if (groupCommit == null && commitLog.writtenOffset() > offset) {
                dispatchLoop.wake(); // the entries written before the failure are stored and confirmed
            }
            throw e;
        }
        if (groupCommit != null && end > offset) {
            AppendResult covering = new AppendResult(AppendStatus.PUT_OK, offset, (int) (end - offset), 0, 0, null,
                    "");
            AppendResult durable = groupCommit.awaitDurable(covering, config.syncFlushTimeout());
            if (durable.status() != AppendStatus.PUT_OK) {
                return commitLog.flushedOffset();
            }
        }
        dispatchLoop.wake();
        return end;
    }

    /**
     * Up to {@code maxBytes} written commit-log bytes from {@code offset}, within one segment, for a slave; empty
     * when nothing is written there yet.
     *
     * @throws IllegalArgumentException when {@code offset} is no longer on disk
     */
    @Override
    public Optional<ByteBuffer> replicaChunk(long offset, int maxBytes) {
        return commitLog.replicaChunk(offset, maxBytes);
    }

    /**
     * Where what {@link #replicaChunk} can read ends: under sync flush, appended entries reach their segment's file
     * only with the next force, so this may be behind {@link #commitLogEndOffset()}.
     */
    @Override
    public long replicableEndOffset() {
        return commitLogFile.writtenOffset();
    }

    /**
     * Reads up to {@code maxMessages} messages / {@code maxBytes} bytes (at least one message when any matches) from
     * a queue, starting at {@code offset}, applying {@code filter} on the tag code and then on the message.
     */
    @Override
    public GetMessageResult getMessages(String topic, int queueId, long offset, int maxMessages, int maxBytes,
                                        MessageFilterPredicate filter) {
        Objects.requireNonNull(filter, "filter");
        return reader.read(topic, queueId, offset, maxMessages, maxBytes, filter);
    }

    /** The topics the store holds consume queues of, each with its highest queue id + 1. */
    public Map<String, Integer> queueCounts() {
        Map<String, Integer> counts = new java.util.HashMap<>();
        consumeQueues.nextOffsets().keySet().forEach(queue -> counts.merge(queue.topic(),
            (int) Math.min(Integer.MAX_VALUE, queue.queueId() + 1L), Math::max));
        return counts;
    }

    /** The queue's smallest readable offset (0 for an unknown queue). */
    @Override
    public long minOffset(String topic, int queueId) {
        return consumeQueues.find(topic, queueId).map(ConsumeQueue::minOffset).orElse(0L);
    }

    /** The queue's next offset: one past its last dispatched message (0 for an unknown queue). */
    @Override
    public long nextOffset(String topic, int queueId) {
        return consumeQueues.find(topic, queueId).map(ConsumeQueue::nextOffset).orElse(0L);
    }

    /**
     * Where the message at a queue offset starts in the commit log, read from the consume queue alone (empty when the
     * queue has no entry there: not yet dispatched, deleted by retention, or beyond its end).
     */
    public OptionalLong physicalOffsetOf(String topic, int queueId, long queueOffset) {
        return consumeQueues.find(topic, queueId).flatMap(queue -> queue.entry(queueOffset))
            .map(entry -> OptionalLong.of(entry.physicalOffset())).orElse(OptionalLong.empty());
    }

    /** The first queue offset stored at or after {@code timestamp} (the next offset when none). */
    public long offsetForTimestamp(String topic, int queueId, long timestamp) {
        return reader.offsetForTimestamp(topic, queueId, timestamp);
    }

    /** The message stored at a commit-log offset. */
    @Override
    public Optional<StoredMessageView> messageAt(long physicalOffset) {
        return commitLog.messageAt(physicalOffset);
    }

    /**
     * The message at {@code queueOffset} of a queue, if it is the entry stored at {@code physicalOffset}: found through
     * the consume queue or, for a message just stored whose consume-queue entry the dispatcher has not written yet, by
     * walking the commit log's entries from where the dispatcher was before the consume queue was read (read after,
     * the dispatcher could pass the message between the two looks, and neither would find it). A client naming an
     * offset inside another message's body finds nothing; at most {@value #MAX_UNDISPATCHED_WALK} bytes are walked.
     */
    public Optional<StoredMessageView> queuedMessageAt(String topic, int queueId, long queueOffset,
                                                       long physicalOffset) {
        if (queueOffset < 0 || physicalOffset < 0) {
            return Optional.empty();
        }
        long dispatched = dispatcher.dispatchedOffset(); // first: see above
        GetMessageResult queued = reader.read(topic, queueId, queueOffset, 1, Integer.MAX_VALUE,
                MessageFilterPredicate.ALL);
        if (queued.status() == GetMessageStatus.FOUND && queued.views().get(0).queueOffset() == queueOffset) {
            StoredMessageView found = queued.views().get(0);
            return found.physicalOffset() == physicalOffset ? Optional.of(found) : Optional.empty();
        }
        if (physicalOffset < dispatched || physicalOffset - dispatched > MAX_UNDISPATCHED_WALK) {
            return Optional.empty();
        }
        if (commitLog.forEachEntry(dispatched, physicalOffset, message -> { }) != physicalOffset) {
            return Optional.empty();
        }
        return commitLog.messageAt(physicalOffset).filter(message -> topic.equals(message.topic())
                && message.queueId() == queueId && message.queueOffset() == queueOffset);
    }

    static final long MAX_UNDISPATCHED_WALK = 64L << 20;

    /** The message an offset message id names ("view by offset id"). */
    public Optional<StoredMessageView> messageByOffsetId(String offsetMessageId) {
        return finder.byOffsetMessageId(offsetMessageId);
    }

    /** Messages of a topic carrying {@code key} (its UNIQ_KEY or one of its KEYS) stored within [begin, end]. */
    public QueryMessageResult queryMessagesByKey(String topic, String key, int maxResults, long beginTimestamp,
                                                 long endTimestamp) {
        return new QueryMessageResult(finder.byKey(topic, key, maxResults, beginTimestamp, endTimestamp),
            dispatcher.lastDispatchedTimestamp(), dispatcher.dispatchedOffset());
    }

    /**
     * Hands every message from commit-log offset {@code from} up to {@code limit} to {@code sink}, in the order they
     * were written, and returns the offset reached (below the first segment, from the first segment).
     */
    public long forEachMessage(long from, long limit, Consumer<StoredMessageView> sink) {
        return commitLog.forEachEntry(from, Math.min(limit, commitLog.writtenOffset()), sink);
    }

    /**
     * Keeps retention by age from deleting any segment that reaches past {@code floor}'s answer, asked on each pass:
     * messages another part still needs (a timer's message until it fires). A disk above its clean ratio still
     * deletes the oldest segment, floor or not.
     */
    public void expiryFloor(LongSupplier floor) {
        retention.expiryFloor(Objects.requireNonNull(floor, "floor"));
    }

    @Override
    public int maxEntrySize() {
        return (int) Math.min(config.commitLogSegmentSize(), (long) config.maxMessageBodySize() + (1 << 20));
    }

    /** Smallest commit-log offset still on disk. */
    @Override
    public long commitLogMinOffset() {
        return commitLog.minOffset();
    }

    /** One past the last written commit-log byte. */
    @Override
    public long commitLogEndOffset() {
        return commitLog.writtenOffset();
    }

    /** One past the last durable commit-log byte. */
    public long commitLogFlushedOffset() {
        return commitLog.flushedOffset();
    }

    /**
     * Deletes a topic's consume queues (its messages stay in the commit log until retention removes them, as in
     * RocketMQ): its queues start at 0 again and nothing sent before is read from them. Completes, with how many
     * queues were dropped, once the dispatcher has dispatched what was written before and dropped them.
     */
    public CompletableFuture<Integer> deleteTopic(String topic) {
        long end = commitLog.forgetQueues(topic);
        CompletableFuture<Integer> done = dispatcher.deleteTopicAfter(topic, end);
        dispatchLoop.wake();
        return done;
    }

    /** One past the last commit-log entry dispatched to consume queues and index. */
    @Override
    public long dispatchedOffset() {
        return dispatcher.dispatchedOffset();
    }

    /**
     * Entries the dispatcher could not write to a consume queue or the index when it first met them, since opening.
     * Such an entry is not lost: its queue is set aside and rebuilt from the commit log ({@link Dispatcher}).
     */
    public long dispatchFailures() {
        return dispatcher.failedEntries();
    }

    /** Queues set aside now because an entry could not be written to them, as {@code topic:queueId}. */
    public List<String> setAsideQueues() {
        return dispatcher.setAsideQueues().stream().map(q -> q.topic() + ":" + q.queueId()).sorted().toList();
    }

    /** How many forces the commit log has done since opening (group commit shares one among many appends). */
    public long commitLogForces() {
        return commitLog.forces();
    }

    /** How many times a background duty (flush, dispatch, checkpoint, retention) failed; each failure is logged. */
    public long backgroundFailures() {
        return loops.stream().mapToLong(DutyLoop::failures).sum();
    }

    /** Runs one retention pass now; returns how many commit-log segments it deleted. */
    public int deleteExpiredSegments() {
        return retention.deleteExpired();
    }

    /**
     * Flushes everything and writes the checkpoint now; under sync flush, appends waiting for a force are answered
     * before it returns.
     */
    public void flush() {
        commitLog.flush();
        if (groupCommit != null) {
            groupCommit.releaseCovered();
            // bytes this force confirmed, the group commit finds already flushed and never wakes the dispatcher for
            dispatchLoop.wake();
        }
        checkpoints.flushAll();
    }

    /**
     * Stops appends and the services, flushes and dispatches everything written, writes the checkpoint and removes
     * the abort marker, so the next open knows the shutdown was clean.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        commitLog.close();
        if (zeroFiller != null) {
            zeroFiller.stop();
        }
        loops.forEach(DutyLoop::close);
        long end;
        try {
            end = commitLog.flush();
        } finally {
            if (groupCommit != null) {
                groupCommit.releaseAll(); // appends that raced the close: durable now, or told they are not
            }
        }
        dispatcher.dispatchFinally(end);
        checkpoints.flushAll();
        commitLogFile.close();
        try {
            Files.deleteIfExists(config.storeDir().resolve(ABORT_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove abort marker in " + config.storeDir(), e);
        }
    }

    /** Builds and opens a {@link MessageStore}. */
    public static final class Builder {
        private final StoreConfig config;
        private Clock clock = Clock.system();
        private ThreadFactory threadFactory = new DaemonThreads("ferry-store");
        private DiskSpace diskSpace;
        private MessageArrivalListener arrivalListener = MessageArrivalListener.NONE;
        private Duration dispatchIdleWait = DISPATCH_IDLE_WAIT;

        private Builder(StoreConfig config) {
            this.config = Objects.requireNonNull(config, "config");
        }

        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        public Builder threadFactory(ThreadFactory value) {
            this.threadFactory = Objects.requireNonNull(value, "threadFactory");
            return this;
        }

        /** The disk to watch for usage (default: the file store of the store directory). */
        public Builder diskSpace(DiskSpace value) {
            this.diskSpace = Objects.requireNonNull(value, "diskSpace");
            return this;
        }

        public Builder arrivalListener(MessageArrivalListener value) {
            this.arrivalListener = Objects.requireNonNull(value, "arrivalListener");
            return this;
        }

        /** The dispatch thread's sleep when idle and not woken; tests make it long to prove every wake-up happens. */
        Builder dispatchIdleWait(Duration value) {
            this.dispatchIdleWait = Objects.requireNonNull(value, "dispatchIdleWait");
            return this;
        }

        /** Opens the store: loads and recovers the files, then starts the services. */
        public MessageStore open() {
            return new MessageStore(this);
        }
    }
}
