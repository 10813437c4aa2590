package dev.ferry.server.replica;

import dev.ferry.remoting.ha.HaSlaveListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A SYNC_MASTER's view of its slaves: how many are connected and the furthest offset any reported, and the sends
 * waiting for them. A send is released when a report covers it, answered SLAVE_NOT_AVAILABLE at once when no slave is
 * connected or the furthest is more than {@code maxGap} bytes behind (Apache's haMaxGapNotInSync), and TIMED_OUT when
 * {@link #expireOverdue()} finds it waited longer than {@code timeout} (Apache's syncFlushTimeout). Thread-safe.
 */
public final class ReplicaAcks implements ReplicaWait, HaSlaveListener {
    private record Waiter(long end, long deadline, CompletableFuture<ReplicaOutcome> done) {
    }

    private final Duration timeout;
    private final long maxGap;
    private final LongSupplier nanoTime;
    private final AtomicInteger slaves = new AtomicInteger();
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.end, b.end));
    private volatile long acknowledged = -1;

    public ReplicaAcks(Duration timeout, long maxGap, LongSupplier nanoTime) {
        this.timeout = timeout;
        this.maxGap = maxGap;
        this.nanoTime = nanoTime;
    }

    @Override
    public CompletableFuture<ReplicaOutcome> replicated(long end, long masterEnd) {
        if (acknowledged >= end) {
            return CompletableFuture.completedFuture(ReplicaOutcome.REPLICATED);
        }
        if (slaves.get() == 0 || masterEnd - Math.max(acknowledged, 0) > maxGap) {
            return CompletableFuture.completedFuture(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        }
        Waiter waiter = new Waiter(end, nanoTime.getAsLong() + timeout.toNanos(), new CompletableFuture<>());
        synchronized (waiting) {
            waiting.add(waiter);
        }
        if (acknowledged >= end) { // a report that came in meanwhile may have missed it
            release();
        }
        return waiter.done;
    }

    /** A slave reported that its commit log ends at {@code offset}. */
    @Override
    public void acknowledged(long offset) {
        if (offset > acknowledged) {
            synchronized (waiting) {
                if (offset > acknowledged) {
                    acknowledged = offset;
                }
            }
            release();
        }
    }

    /** The furthest offset a slave reported, or -1. */
    public long acknowledged() {
        return acknowledged;
    }

    @Override
    public void slaveConnected() {
        slaves.incrementAndGet();
    }

    /** A slave went away; with none left, every waiting send is answered SLAVE_NOT_AVAILABLE. */
    @Override
    public void slaveDisconnected() {
        if (slaves.decrementAndGet() == 0) {
            drain(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        }
    }

    public int slaves() {
        return slaves.get();
    }

    /** Answers TIMED_OUT to the sends that waited past the timeout; run periodically. */
    public void expireOverdue() {
        long now = nanoTime.getAsLong();
        List<Waiter> overdue = new ArrayList<>();
        synchronized (waiting) {
            waiting.removeIf(waiter -> {
                if (now - waiter.deadline >= 0) {
                    overdue.add(waiter);
                    return true;
                }
                return false;
            });
        }
        overdue.forEach(waiter -> waiter.done.complete(ReplicaOutcome.TIMED_OUT));
    }

    /** Answers every waiting send with {@code outcome} (at close). */
    public void drain(ReplicaOutcome outcome) {
        List<Waiter> all;
        synchronized (waiting) {
            all = new ArrayList<>(waiting);
            waiting.clear();
        }
        all.forEach(waiter -> waiter.done.complete(outcome));
    }

    private void release() {
        List<Waiter> covered = new ArrayList<>();
        synchronized (waiting) {
            while (!waiting.isEmpty() && waiting.peek().end <= acknowledged) {
                covered.add(waiting.poll());
            }
        }
        covered.forEach(waiter -> waiter.done.complete(ReplicaOutcome.REPLICATED));
    }
}
