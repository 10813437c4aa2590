package dev.ferry.store;

import java.time.Duration;
import java.util.Iterator;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Synchronous flush with group commit. An appending thread calls {@link #awaitDurable} after its append: it registers
 * as a waiter and parks. The flush thread (this duty's only caller) gives just-woken appenders a moment to append,
 * forces everything written so far in one go, and unparks exactly the waiters that force covered, so many appends
 * share one force and no waiter contends for a lock on the way out. After each force the dispatcher is woken, since
 * under sync flush it follows the flushed offset.
 */
final class GroupCommitService implements DutyLoop.Duty {
    private final CommitLog commitLog;
    private final Runnable afterFlush;
    private final long maxLingerNanos;
    private final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private DutyLoop loop;

    GroupCommitService(CommitLog commitLog, Duration maxLinger, Runnable afterFlush) {
        this.commitLog = commitLog;
        this.maxLingerNanos = maxLinger.toNanos();
        this.afterFlush = afterFlush;
    }

    /** The loop running this service, to wake it when a waiter arrives. */
    void attach(DutyLoop runner) {
        this.loop = runner;
    }

    @Override
    public int doWork() {
        if (commitLog.writtenOffset() <= commitLog.flushedOffset()) {
            return 0;
        }
        lingerWhileAppendsArrive();
        long before = commitLog.flushedOffset();
        long flushed;
        try {
            flushed = commitLog.flush();
        } finally {
            if (commitLog.failed()) {
                // nothing more becomes durable: let every waiter see that now rather than at its timeout
                waiters.forEach(waiter -> LockSupport.unpark(waiter.thread()));
            }
        }
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter waiter = it.next();
            if (waiter.offset() <= flushed) {
                it.remove();
                LockSupport.unpark(waiter.thread());
            }
        }
        afterFlush.run();
        return flushed > before ? 1 : 0;
    }

    /**
     * Gives appending threads that were just woken a moment to append before the force, so one force covers them
     * too: yields while the written offset keeps growing, for at most the configured linger.
     */
    private void lingerWhileAppendsArrive() {
        if (maxLingerNanos <= 0) {
            return;
        }
        long deadline = System.nanoTime() + maxLingerNanos;
        long seen = commitLog.writtenOffset();
        while (System.nanoTime() < deadline) {
            Thread.yield();
            long now = commitLog.writtenOffset();
            if (now == seen) {
                return;
            }
            seen = now;
        }
    }

    /** Waits until the commit log is durable up to {@code offset}; false after {@code timeout}. */
    boolean awaitDurable(long offset, Duration timeout) {
        if (commitLog.flushedOffset() >= offset) {
            return true;
        }
        Waiter waiter = new Waiter(offset, Thread.currentThread());
        waiters.add(waiter);
        loop.wake();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (commitLog.flushedOffset() < offset) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0 || Thread.currentThread().isInterrupted() || commitLog.failed()) {
                waiters.remove(waiter);
                return commitLog.flushedOffset() >= offset;
            }
            LockSupport.parkNanos(this, remaining);
        }
        return true;
    }

    /**
     * One appending thread waiting for its bytes to be forced.
     *
     * @param offset commit-log offset that must be durable
     * @param thread the thread to unpark
     */
    private record Waiter(long offset, Thread thread) {
    }
}
