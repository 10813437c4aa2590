package dev.ferry.store;

import dev.ferry.format.Clock;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Follows the commit log: reads every entry from {@link #dispatchedOffset()} up to the confirmed offset (what is
 * written under async flush, what is flushed under sync flush, so consumers never see bytes a crash could take back),
 * writes its consume-queue entry (not for prepared or rolled-back transactional messages) and its index keys, and tells
 * the arrival listener. The dispatch thread runs it when woken (it does not poll for new bytes: see
 * {@link MessageStore#DISPATCH_IDLE_WAIT}); {@link #dispatchUpTo} also runs on the opening thread during
 * recovery, before that thread starts, and {@link #dispatchIfIdle} on an appending thread while the dispatch thread
 * has nothing to do. One of them at a time: each holds the dispatcher's turn.
 *
 * <p>Why an appender may dispatch: waking the dispatch thread for every message (a sync producer's pace) cost the
 * broker more CPU than the dispatch itself, a park and an unpark per message, and put one more thread between a
 * message and the consumer waiting for it. An appender that finds the dispatcher idle and little waiting dispatches
 * what it wrote itself; under a stream of appends the dispatch thread is busy, the appender finds its turn taken and
 * only wakes it.
 *
 * <p>No entry can stop it. When a consume queue cannot take an entry (a directory it cannot create, a disk error),
 * that queue is set aside: the failure is logged once and counted, the queue's later entries wait with it, and every
 * other queue goes on. A set-aside queue is rebuilt from the commit log, from its first missing entry, at growing
 * intervals until that works; nothing written is lost, only delayed. An index that fails loses only lookups by key,
 * so its failures are counted and logged once per run of failures. A failing arrival listener is the same.
 */
final class Dispatcher implements DutyLoop.Duty {
    private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());
    static final Duration FIRST_REPAIR_DELAY = Duration.ofSeconds(10);
    static final Duration LONGEST_REPAIR_DELAY = Duration.ofMinutes(10);
    static final long REPAIR_CHUNK = 16L << 20;
    /** At most this much waiting is dispatched by an appender; more is the dispatch thread's, off the send path. */
    static final long MOST_DISPATCHED_INLINE = 64 << 10;

    /** A queue that could not take its entries: where they start again, how far they went, when to try again. */
    private static final class SetAside {
        final long fromPhysicalOffset;
        long nextQueueOffset;
        long delayMillis = FIRST_REPAIR_DELAY.toMillis();
        long nextRepairMillis;

        SetAside(long fromPhysicalOffset, long nextQueueOffset, long now) {
            this.fromPhysicalOffset = fromPhysicalOffset;
            this.nextQueueOffset = nextQueueOffset;
            this.nextRepairMillis = now + delayMillis;
        }
    }

    private final CommitLog commitLog;
    private final ConsumeQueueTable consumeQueues;
    private final MessageIndex index;
    private final LongSupplier confirmedOffset;
    private final MessageArrivalListener listener;
    private final Clock clock;
    private final Map<QueueKey, SetAside> setAside = new ConcurrentHashMap<>();
    private final AtomicLong failedEntries = new AtomicLong();
    private boolean indexFailing;
    private boolean listenerFailing;
    /** The queues of the repair under way, and how far it has read the commit log; the dispatch thread's only. */
    private Map<QueueKey, ConsumeQueue> repairing;
    private long repairCursor;
    private volatile long dispatchedOffset;
    /** Topics to drop once everything written before their deletion is dispatched, in order. */
    private final Queue<Deletion> deletions = new ConcurrentLinkedQueue<>();

    private record Deletion(String topic, long end, CompletableFuture<Integer> done) {
    }
    private volatile long lastDispatchedTimestamp;
    /** Whose turn it is to dispatch: the dispatch thread's, an appender's, recovery's or the closing thread's. */
    private final ReentrantLock turn = new ReentrantLock();
    /** Set by {@link #dispatchFinally}: appenders dispatch no more. */
    private boolean finished;
    /** Entries below this are in the index already (recovery re-dispatches them for their consume queues only). */
    private long indexFrom;

    Dispatcher(CommitLog commitLog, ConsumeQueueTable consumeQueues, MessageIndex index, LongSupplier confirmedOffset,
               MessageArrivalListener listener, Clock clock) {
        this.commitLog = commitLog;
        this.consumeQueues = consumeQueues;
        this.index = index;
        this.confirmedOffset = confirmedOffset;
        this.listener = listener;
        this.clock = clock;
    }

    long dispatchedOffset() {
        return dispatchedOffset;
    }

    long lastDispatchedTimestamp() {
        return lastDispatchedTimestamp;
    }

    /** Entries that could not be dispatched when first met (to a consume queue or the index), since opening. */
    long failedEntries() {
        return failedEntries.get();
    }

    /** The queues set aside now, waiting to be rebuilt. */
    Set<QueueKey> setAsideQueues() {
        return Set.copyOf(setAside.keySet());
    }

    /**
     * The next queue offset of each set-aside queue, from the entries seen for it: the commit log must continue
     * from these, not from the queues' own ends, which stop where they were set aside.
     */
    Map<QueueKey, Long> setAsideNextOffsets() {
        Map<QueueKey, Long> next = new HashMap<>();
        setAside.forEach((key, queue) -> next.put(key, queue.nextQueueOffset));
        return next;
    }

    /**
     * Commit-log offset below which every consume-queue entry is written: the dispatched offset, or the first entry a
     * set-aside queue lacks. The checkpoint records this, so a restart dispatches those entries again.
     */
    long consumeQueueCompleteOffset() {
        long complete = dispatchedOffset; // first: entries set aside after this read lie beyond it
        for (SetAside queue : setAside.values()) {
            complete = Math.min(complete, queue.fromPhysicalOffset);
        }
        return complete;
    }

    /** Where to start (recovery's verdict); entries below {@code indexedUpTo} are not indexed again. */
    void startFrom(long offset, long indexedUpTo) {
        dispatchedOffset = offset;
        indexFrom = indexedUpTo;
    }

    /**
     * Drops a deleted topic's consume queues once every entry before {@code end} is dispatched, and dispatches nothing
     * beyond {@code end} before: those entries belong to the topic's new queues. Completes with how many queues.
     */
    CompletableFuture<Integer> deleteTopicAfter(String topic, long end) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        deletions.add(new Deletion(topic, end, done));
        return done;
    }

    @Override
    public int doWork() {
        turn.lock();
        try {
            return dispatchAndRepair();
        } finally {
            turn.unlock();
        }
    }

    /**
     * Dispatches what is confirmed, on the caller's thread, when nobody else is dispatching and at most
     * {@value #MOST_DISPATCHED_INLINE} bytes wait, no topic deletion or queue repair is pending, and the caller is not
     * dispatching already (a listener that appended). Returns whether it did; if not, the dispatch thread must be woken.
     */
    boolean dispatchIfIdle() {
        if (turn.isHeldByCurrentThread() || !turn.tryLock()) {
            return false;
        }
        try {
            long confirmed = confirmedOffset.getAsLong();
            if (finished || !deletions.isEmpty() || !setAside.isEmpty()
                    || confirmed - dispatchedOffset > MOST_DISPATCHED_INLINE) {
                return false;
            }
            dispatchUpTo(confirmed, true);
            return true;
        } finally {
            turn.unlock();
        }
    }

    /** The closing thread's last dispatch, up to {@code end}; afterwards no appender dispatches. */
    void dispatchFinally(long end) {
        turn.lock();
        try {
            finished = true;
            dispatchUpTo(end, true);
        } finally {
            turn.unlock();
        }
    }

    /** One round: dispatches, ends due deletions, repairs a chunk; whether it did anything (else the loop waits). */
    private int dispatchAndRepair() {
        long before = dispatchedOffset;
        long confirmed = confirmedOffset.getAsLong();
        Deletion next = deletions.peek();
        dispatchUpTo(next == null ? confirmed : Math.min(confirmed, next.end()), true);
        boolean worked = dispatchedOffset > before;
        // a deletion's end may lie inside a segment's blank tail, which no entry steps over
        while ((next = deletions.peek()) != null
                && (dispatchedOffset >= next.end() || dispatchedOffset == before && confirmed >= next.end())) {
            worked = true; // the entries beyond it, held back until now, may be confirmed already
            deletions.poll();
            String topic = next.topic();
            setAside.keySet().removeIf(queue -> queue.topic().equals(topic));
            try {
                next.done().complete(consumeQueues.removeTopic(topic));
            } catch (RuntimeException e) {
                next.done().completeExceptionally(e);
            }
        }
        if (!setAside.isEmpty() && repairDue()) {
            worked = true; // the next chunk at once, not after the idle wait
        }
        return worked ? 1 : 0;
    }

    /** Dispatches entries up to {@code limit}; returns how many messages. */
    int dispatchUpTo(long limit, boolean notify) {
        turn.lock();
        try {
            int[] count = {0};
            dispatchedOffset = commitLog.forEachEntry(dispatchedOffset, limit, message -> {
                dispatch(message, notify);
                count[0]++;
            });
            return count[0];
        } finally {
            turn.unlock();
        }
    }

    private void dispatch(StoredMessageView message, boolean notify) {
        if (SysFlags.isDispatchedToConsumeQueue(message.sysFlag())) {
            toConsumeQueue(message, notify);
        }
        if (message.physicalOffset() < indexFrom) {
            lastDispatchedTimestamp = message.storeTimestamp();
            return;
        }
        try {
            index.add(message);
            indexFailing = false;
        } catch (RuntimeException | InternalError e) { // a full disk faults a mapped page as an InternalError
            failedEntries.incrementAndGet();
            if (!indexFailing) {
                indexFailing = true;
                LOG.log(Level.ERROR, "cannot index the message at commit-log offset " + message.physicalOffset()
                    + "; lookups by key will miss it and any that follow while this lasts", e);
            }
        }
        lastDispatchedTimestamp = message.storeTimestamp();
    }

    private void toConsumeQueue(StoredMessageView message, boolean notify) {
        QueueKey key = new QueueKey(message.topic(), message.queueId());
        SetAside waiting = setAside.isEmpty() ? null : setAside.get(key);
        if (waiting != null) {
            waiting.nextQueueOffset = Math.max(waiting.nextQueueOffset, message.queueOffset() + 1);
            failedEntries.incrementAndGet();
            return;
        }
        long tagsCode;
        try {
            tagsCode = message.tagsCode();
            consumeQueues.findOrCreate(key.topic(), key.queueId())
                .put(message.queueOffset(), message.physicalOffset(), message.totalSize(), tagsCode);
        } catch (RuntimeException | InternalError e) { // a full disk faults a mapped page as an InternalError
            failedEntries.incrementAndGet();
            setAside.put(key, new SetAside(message.physicalOffset(), message.queueOffset() + 1, clock.millis()));
            LOG.log(Level.ERROR, "cannot write the consume-queue entry of the message at commit-log offset "
                + message.physicalOffset() + " (queue " + key.queueId() + " of topic " + key.topic() + "); that queue"
                + " is set aside and rebuilt later, every other queue goes on", e);
            return;
        }
        if (notify) {
            notifyArrival(key, message.queueOffset() + 1, tagsCode, message.storeTimestamp());
        }
    }

    private void notifyArrival(QueueKey key, long nextQueueOffset, long tagsCode, long storeTimestamp) {
        try {
            listener.onArrival(key.topic(), key.queueId(), nextQueueOffset, tagsCode, storeTimestamp);
            listenerFailing = false;
        } catch (RuntimeException e) {
            if (!listenerFailing) {
                listenerFailing = true;
                LOG.log(Level.ERROR, "the message arrival listener failed; consumers waiting on queue "
                    + key.queueId() + " of " + key.topic() + " learn of new messages when their wait ends", e);
            }
        }
    }

    /**
     * Rebuilds the set-aside queues whose time has come: one pass over the commit log for all of them, from the first
     * entry any of them lacks, at most {@value #REPAIR_CHUNK} bytes per round so dispatching goes on meanwhile. A
     * queue whose rebuild fails again waits twice as long (at most {@link #LONGEST_REPAIR_DELAY}); the others finish.
     * Returns whether it got anywhere.
     */
    private boolean repairDue() {
        if (repairing == null) {
            long now = clock.millis();
            Map<QueueKey, ConsumeQueue> due = new HashMap<>();
            long from = Long.MAX_VALUE;
            for (Map.Entry<QueueKey, SetAside> entry : setAside.entrySet()) {
                if (now >= entry.getValue().nextRepairMillis) {
                    try {
                        due.put(entry.getKey(), consumeQueues.findOrCreate(entry.getKey().topic(),
                            entry.getKey().queueId()));
                        from = Math.min(from, entry.getValue().fromPhysicalOffset);
                    } catch (RuntimeException | InternalError e) {
                        postpone(entry.getKey(), entry.getValue(), now, e);
                    }
                }
            }
            if (due.isEmpty()) {
                return false;
            }
            repairing = due;
            repairCursor = from;
        }
        long end = dispatchedOffset;
        long chunkFrom = repairCursor;
        repairCursor = commitLog.forEachEntry(repairCursor, Math.min(end, repairCursor + REPAIR_CHUNK), message -> {
            if (!SysFlags.isDispatchedToConsumeQueue(message.sysFlag())) {
                return;
            }
            QueueKey key = new QueueKey(message.topic(), message.queueId());
            ConsumeQueue queue = repairing.get(key);
            SetAside waiting = queue == null ? null : setAside.get(key);
            if (waiting == null || message.physicalOffset() < waiting.fromPhysicalOffset) {
                return;
            }
            try {
                queue.put(message.queueOffset(), message.physicalOffset(), message.totalSize(), message.tagsCode());
            } catch (RuntimeException | InternalError e) {
                repairing.remove(key);
                postpone(key, waiting, clock.millis(), e);
            }
        });
        if (repairCursor < end) {
            return repairCursor > chunkFrom; // more to read: at once, unless this chunk went nowhere
        }
        for (Map.Entry<QueueKey, ConsumeQueue> rebuilt : repairing.entrySet()) {
            setAside.remove(rebuilt.getKey());
            LOG.log(Level.WARNING, "queue {0} of topic {1} is rebuilt and back in service", rebuilt.getKey().queueId(),
                rebuilt.getKey().topic());
            notifyArrival(rebuilt.getKey(), rebuilt.getValue().nextOffset(), 0, clock.millis());
        }
        repairing = null;
        return true;
    }

    private void postpone(QueueKey key, SetAside queue, long now, Throwable cause) {
        queue.delayMillis = Math.min(queue.delayMillis * 2, LONGEST_REPAIR_DELAY.toMillis());
        queue.nextRepairMillis = now + queue.delayMillis;
        LOG.log(Level.DEBUG, "queue {0} of {1} still cannot be rebuilt: {2}", key.queueId(), key.topic(),
            cause.toString());
    }
}
