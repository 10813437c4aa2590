package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One assigned queue on the consumer's side: the messages pulled from it and not yet consumed, the
 * offset the next pull starts at, and whether it still belongs to this consumer.
 *
 * <p>Pull callbacks add, consume threads remove, rebalance drops; all under the queue's own lock. The
 * offset to commit is the lowest offset still in flight, or, when nothing is, the next offset the broker
 * named (which also covers messages the client filtered out).
 */
final class ProcessQueue {
    private final MessageQueue queue;
    private final TreeMap<Long, ReceivedMessage> inFlight = new TreeMap<>();
    private long inFlightBytes;
    /** The next offset after everything pulled so far: what to commit when nothing is in flight. */
    private long pulledUpTo;
    private long nextPullOffset;
    private int epoch;
    private volatile boolean dropped;
    private volatile boolean paused;
    /** Orderly consumption: the broker lock is held (renewed) and when it was last confirmed. */
    private volatile boolean locked;
    private volatile long lockedAtMillis;
    /** Orderly consumption: held around listener calls, and by rebalance while it persists a removed queue. */
    private final ReentrantLock consumeLock = new ReentrantLock();
    /** Orderly consumption: a consume task owns the queue. */
    private final AtomicBoolean consuming = new AtomicBoolean();
    /** When the last pull of the queue was answered and its last message consumed, for admin tools; 0 never. */
    private volatile long lastPullMillis;
    /** The queue's next offset as the broker last said it (a pull's answer); -1 before the first. */
    private volatile long brokerNextOffset = -1;
    private volatile long lastConsumeMillis;

    private final Clock clock;

    /** @param clock for when the queue was last pulled and consumed */
    ProcessQueue(MessageQueue queue, long startOffset, Clock clock) {
        this.clock = clock;
        this.queue = queue;
        this.nextPullOffset = startOffset;
        this.pulledUpTo = startOffset;
    }

    MessageQueue queue() {
        return queue;
    }

    /** Where the next pull starts, and the epoch it belongs to (a seek starts a new epoch). */
    synchronized PullPosition pullPosition() {
        return new PullPosition(nextPullOffset, epoch);
    }

    /** The start of the next pull and the seek epoch it was taken in. */
    record PullPosition(long offset, int epoch) {
    }

    /**
     * Records a pull's result if no seek happened since the pull started.
     *
     * @return whether the result was taken
     */
    synchronized boolean pulled(int pullEpoch, List<ReceivedMessage> messages, long nextBeginOffset) {
        if (pullEpoch != epoch || dropped) {
            return false;
        }
        for (ReceivedMessage message : messages) {
            if (inFlight.put(message.queueOffset(), message) == null) {
                inFlightBytes += message.body().length;
            }
        }
        nextPullOffset = nextBeginOffset;
        pulledUpTo = Math.max(pulledUpTo, nextBeginOffset);
        lastPullMillis = clock.millis();
        return true;
    }

    /** Moves the next pull to {@code offset} without taking messages (offset moved, nothing found). */
    synchronized void moveTo(int pullEpoch, long offset) {
        if (pullEpoch == epoch) {
            nextPullOffset = offset;
            pulledUpTo = Math.max(pulledUpTo, offset);
        }
    }

    /** Forgets what was pulled and starts pulling at {@code offset}. */
    synchronized void seek(long offset) {
        epoch++;
        inFlight.clear();
        inFlightBytes = 0;
        nextPullOffset = offset;
        pulledUpTo = offset;
    }

    /**
     * Marks messages consumed.
     *
     * @return the offset to commit now
     */
    synchronized long consumed(Collection<ReceivedMessage> messages) {
        for (ReceivedMessage message : messages) {
            if (inFlight.remove(message.queueOffset()) != null) {
                inFlightBytes -= message.body().length;
            }
        }
        lastConsumeMillis = clock.millis();
        return committableOffset();
    }

    /** The lowest offset still in flight, or the next offset when none is. */
    synchronized long committableOffset() {
        return inFlight.isEmpty() ? pulledUpTo : inFlight.firstKey();
    }

    /** The {@code max} lowest offsets in flight, for orderly consumption (they stay in flight until consumed). */
    synchronized List<ReceivedMessage> head(int max) {
        List<ReceivedMessage> head = new ArrayList<>(Math.min(max, inFlight.size()));
        for (ReceivedMessage message : inFlight.values()) {
            if (head.size() == max) {
                break;
            }
            head.add(message);
        }
        return head;
    }

    /** Records the queue's next offset a pull's answer carried. */
    void brokerNextOffset(long offset) {
        brokerNextOffset = offset;
    }

    /** The queue's next offset as the broker last said it, or -1 before any pull was answered. */
    long brokerNextOffset() {
        return brokerNextOffset;
    }

    /**
     * What admin tools see of the queue (Apache's ProcessQueueInfo): the messages held, their offsets and size,
     * the lock, and when it was last pulled and consumed.
     */
    synchronized Snapshot snapshot() {
        return new Snapshot(inFlight.isEmpty() ? 0 : inFlight.firstKey(), inFlight.isEmpty() ? 0 : inFlight.lastKey(),
                inFlight.size(), inFlightBytes, locked, lockedAtMillis, dropped, lastPullMillis, lastConsumeMillis);
    }

    /** A moment's view of the queue for admin tools. */
    record Snapshot(long minOffset, long maxOffset, int count, long bytes, boolean locked, long lockedAtMillis,
                    boolean dropped, long lastPullMillis, long lastConsumeMillis) {
    }

    synchronized int messageCount() {
        return inFlight.size();
    }

    synchronized long messageBytes() {
        return inFlightBytes;
    }

    /** Distance between the lowest and highest offsets in flight. */
    synchronized long offsetSpan() {
        return inFlight.isEmpty() ? 0 : inFlight.lastKey() - inFlight.firstKey();
    }

    /** The queue no longer belongs to this consumer: no more pulls, no more offset updates. */
    void drop() {
        dropped = true;
    }

    boolean isDropped() {
        return dropped;
    }

    /** Records whether the broker confirmed this consumer's lock on the queue at {@code nowMillis}. */
    void lockConfirmed(boolean value, long nowMillis) {
        locked = value;
        if (value) {
            lockedAtMillis = nowMillis;
        }
    }

    /** Whether the broker lock is held and was confirmed less than {@code validityMillis} ago. */
    boolean isLocked(long nowMillis, long validityMillis) {
        return locked && nowMillis - lockedAtMillis < validityMillis;
    }

    ReentrantLock consumeLock() {
        return consumeLock;
    }

    /** Claims the queue for one consume task; false when another task has it. */
    boolean startConsuming() {
        return consuming.compareAndSet(false, true);
    }

    void stopConsuming() {
        consuming.set(false);
    }

    void pause(boolean value) {
        paused = value;
    }

    boolean isPaused() {
        return paused;
    }

    @Override
    public String toString() {
        return "ProcessQueue[" + queue + "]";
    }
}
