package dev.ferry.store;

import dev.ferry.format.Clock;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Synchronous flush with group commit. After its append a caller either parks in {@link #awaitDurable} or takes a
 * future from {@link #whenDurable}; both register a waiter. The flush thread (this duty's only caller) gives
 * just-woken appenders a moment to append, forces everything written so far in one go, and releases exactly the
 * waiters that force covered (unparks the threads, completes the futures), so many appends share one force and no
 * waiter contends for a lock on the way out. Futures let a caller with many appends in flight, like the broker's
 * send thread, go on appending while earlier ones wait. After each force the dispatcher is woken, since under sync
 * flush it follows the flushed offset.
 */
final class GroupCommitService implements DutyLoop.Duty {
    /** How long the linger waits for the next returning appender before it forces without the rest. */
    private static final long QUIET_NANOS = 50_000;

    private final CommitLog commitLog;
    private final Runnable afterFlush;
    private final Clock clock;
    private final long maxLingerNanos;
    private final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    /** How many waiters are in {@link #waiters}; kept apart because the queue's size() walks it. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** How many waited when the last force returned; the linger expects as many back. Flush thread only. */
    private int waitingAtLastForce;
    /**
     * The count of waiters at which the one registering wakes the flush thread: 1 while it parks with nothing to do,
     * never while it works (it looks again after each force), which spares appenders a wake-up call each.
     */
    private volatile int wakeAt = 1;
    private DutyLoop loop;

    GroupCommitService(CommitLog commitLog, Duration maxLinger, Runnable afterFlush, Clock clock) {
        this.commitLog = commitLog;
        this.clock = clock;
        this.maxLingerNanos = maxLinger.toNanos();
        this.afterFlush = afterFlush;
    }

    /** The loop running this service, to wake it when a waiter arrives. */
    void attach(DutyLoop runner) {
        this.loop = runner;
    }

    @Override
    public int doWork() {
        if (nothingToFlush()) {
            wakeAt = 1; // the loop parks: the next waiter must wake it
            if (nothingToFlush()) {
                releaseCovered(); // a flush from outside (MessageStore.flush) may have covered waiters
                return 0;
            }
        }
        wakeAt = Integer.MAX_VALUE; // busy: it looks for waiters again after this round anyway
        lingerForReturningAppenders();
        long before = commitLog.flushedOffset();
        long flushed;
        try {
            flushed = commitLog.flush();
        } finally {
            if (commitLog.failed()) {
                // nothing more becomes durable: let every waiter know now rather than at its timeout
                releaseAll();
            }
        }
        waitingAtLastForce = waiting.get();
        releaseCovered();
        afterFlush.run();
        return flushed > before ? 1 : 0;
    }

    /** Releases the waiters the flushed offset covers: the flush thread's after each force, or whoever flushed. */
    void releaseCovered() {
        if (waiters.isEmpty()) {
            return;
        }
        long flushed = commitLog.flushedOffset();
        for (Waiter waiter : waiters) {
            if (waiter.offset() <= flushed && remove(waiter)) {
                waiter.release(true);
            }
        }
    }

    /**
     * Answers the futures whose timeout has passed: with {@link AppendStatus#FLUSH_DISK_TIMEOUT}, or as they are if
     * their force has just covered them. Called from a thread of its own, since the flush thread may hang in a force.
     */
    void expireOverdue() {
        long now = clock.nanos();
        for (Waiter waiter : waiters) {
            if (waiter instanceof PendingAppend pending && pending.overdue(now) && remove(pending)) {
                pending.future().complete(outcome(pending.stored(), pending.timeout()));
            }
        }
    }

    /**
     * Releases every waiter: as durable when the flushed offset covers it, otherwise as not durable. For a failed
     * log, and after the final flush when the store closes.
     */
    void releaseAll() {
        long flushed = commitLog.flushedOffset();
        for (Waiter waiter : waiters) {
            if (remove(waiter)) {
                waiter.release(waiter.offset() <= flushed);
            }
        }
    }

    private boolean nothingToFlush() {
        return commitLog.writtenOffset() <= commitLog.flushedOffset();
    }

    /**
     * Gives the appenders the last force released a moment to append again before the next force, so that it
     * covers them too rather than only those that were quicker: yields until as many appends wait as did at the last
     * force, as long as they keep coming, for at most the configured linger. Appenders that wait for one append
     * before making the next, as sync senders do, come back after each force; when fewer come back, the linger ends
     * when they stop coming, and the next round expects the smaller number.
     */
    private void lingerForReturningAppenders() {
        if (maxLingerNanos <= 0) {
            return;
        }
        long started = clock.nanos();
        long lastArrival = started;
        int seen = waiting.get();
        for (long now = started; seen < waitingAtLastForce && now - started < maxLingerNanos
                && now - lastArrival < QUIET_NANOS; now = clock.nanos()) {
            Thread.yield();
            int count = waiting.get();
            if (count != seen) {
                seen = count;
                lastArrival = clock.nanos();
            }
        }
    }

    private void register(Waiter waiter) {
        waiters.add(waiter);
        if (waiting.incrementAndGet() >= wakeAt) {
            loop.wake();
        }
    }

    /** Takes a waiter out; true for exactly one caller, who then releases it. */
    private boolean remove(Waiter waiter) {
        if (waiters.remove(waiter)) {
            waiting.decrementAndGet();
            return true;
        }
        return false;
    }

    /**
     * Parks the calling thread until {@code stored} is durable; returns it as it is then, or with
     * {@link AppendStatus#FLUSH_DISK_TIMEOUT} after {@code timeout}, or with {@link AppendStatus#SERVICE_NOT_AVAILABLE}
     * once a failed write or force has stopped the log.
     */
    AppendResult awaitDurable(AppendResult stored, Duration timeout) {
        long offset = stored.nextPhysicalOffset();
        if (commitLog.flushedOffset() >= offset) {
            return stored;
        }
        ParkedThread waiter = new ParkedThread(offset);
        register(waiter);
        long deadline = clock.nanos() + timeout.toNanos();
        try {
            while (commitLog.flushedOffset() < offset) {
                long remaining = deadline - clock.nanos();
                if (remaining <= 0 || Thread.currentThread().isInterrupted() || commitLog.failed()) {
                    return outcome(stored, timeout);
                }
                LockSupport.parkNanos(this, remaining);
            }
            return stored;
        } finally {
            if (!waiter.released()) {
                remove(waiter); // still queued when the force beat the queue or the wait ended without it
            }
        }
    }

    /**
     * A future of {@code stored} once it is durable, with the outcomes of {@link #awaitDurable}. The flush thread
     * completes it, so what depends on it runs there and must be brief; the timeout is answered by
     * {@link #expireOverdue}.
     */
    CompletableFuture<AppendResult> whenDurable(AppendResult stored, Duration timeout) {
        long offset = stored.nextPhysicalOffset();
        if (commitLog.flushedOffset() >= offset) {
            return CompletableFuture.completedFuture(stored);
        }
        PendingAppend waiter = new PendingAppend(stored, timeout, clock.nanos());
        register(waiter);
        if ((commitLog.flushedOffset() >= offset || commitLog.failed()) && remove(waiter)) {
            // the flush thread may have passed before this waiter was in the queue
            waiter.release(commitLog.flushedOffset() >= offset);
        }
        return waiter.future();
    }

    private AppendResult outcome(AppendResult stored, Duration timeout) {
        if (commitLog.flushedOffset() >= stored.nextPhysicalOffset()) {
            return stored;
        }
        return commitLog.failed() ? notDurable(stored)
            : stored.withStatus(AppendStatus.FLUSH_DISK_TIMEOUT, "not flushed within " + timeout);
    }

    private static AppendResult notDurable(AppendResult stored) {
        return stored.withStatus(AppendStatus.SERVICE_NOT_AVAILABLE, "not durable: a commit-log write or force failed");
    }

    /** An append waiting for its bytes to be forced. Equal only to itself, so the queue finds it fast. */
    private sealed interface Waiter permits ParkedThread, PendingAppend {
        /** Commit-log offset that must be durable. */
        long offset();

        /** Lets it go, after the force that covered it or without one; called once, by whoever removed it. */
        void release(boolean durable);
    }

    /** The calling thread, parked in {@link #awaitDurable}; it times itself out and reads the outcome itself. */
    private static final class ParkedThread implements Waiter {
        private final long offset;
        private final Thread thread = Thread.currentThread();
        private volatile boolean released;

        ParkedThread(long offset) {
            this.offset = offset;
        }

        @Override
        public long offset() {
            return offset;
        }

        boolean released() {
            return released;
        }

        @Override
        public void release(boolean durable) {
            released = true;
            LockSupport.unpark(thread);
        }
    }

    /** A future handed out by {@link #whenDurable}. */
    private static final class PendingAppend implements Waiter {
        private final AppendResult stored;
        private final Duration timeout;
        private final long deadline;
        private final CompletableFuture<AppendResult> future = new CompletableFuture<>();

        PendingAppend(AppendResult stored, Duration timeout, long nowNanos) {
            this.stored = stored;
            this.timeout = timeout;
            this.deadline = nowNanos + timeout.toNanos();
        }

        @Override
        public long offset() {
            return stored.nextPhysicalOffset();
        }

        AppendResult stored() {
            return stored;
        }

        Duration timeout() {
            return timeout;
        }

        CompletableFuture<AppendResult> future() {
            return future;
        }

        boolean overdue(long nanoTime) {
            return nanoTime - deadline >= 0;
        }

        @Override
        public void release(boolean durable) {
            future.complete(durable ? stored : notDurable(stored));
        }
    }
}
