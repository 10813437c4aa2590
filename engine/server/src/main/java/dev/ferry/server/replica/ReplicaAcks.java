package dev.ferry.server.replica;

import dev.ferry.format.Clock;
import dev.ferry.remoting.ha.HaSlaveListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * A SYNC_MASTER's view of its slaves: the furthest offset each connected slave reported (at most what it was sent),
 * and the sends waiting for them. A send is released when a report covers it, answered SLAVE_NOT_AVAILABLE at once when no slave is
 * connected or the furthest is more than {@code maxGap} bytes behind (Apache's haMaxGapNotInSync), and TIMED_OUT when
 * {@link #expireOverdue()} finds it waited longer than {@code timeout} (Apache's syncFlushTimeout). Thread-safe.
 */
public final class ReplicaAcks implements ReplicaWait, HaSlaveListener {
    private record Waiter(long end, long deadline, CompletableFuture<ReplicaOutcome> done) {
    }

    private final Duration timeout;
    private final long maxGap;
    private final Clock clock;
    /** The furthest offset each connected slave reported; guarded by {@link #waiting}. */
    private final Map<Object, Long> reports = new HashMap<>();
    private final PriorityQueue<Waiter> waiting = new PriorityQueue<>((a, b) -> Long.compare(a.end, b.end));
    private volatile long acknowledged = -1;

    public ReplicaAcks(Duration timeout, long maxGap, Clock clock) {
        this.timeout = timeout;
        this.maxGap = maxGap;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<ReplicaOutcome> replicated(long end, long masterEnd) {
        if (acknowledged >= end) {
            return CompletableFuture.completedFuture(ReplicaOutcome.REPLICATED);
        }
        if (slaves() == 0 || masterEnd - Math.max(acknowledged, 0) > maxGap) {
            return CompletableFuture.completedFuture(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        }
        Waiter waiter = new Waiter(end, clock.nanos() + timeout.toNanos(), new CompletableFuture<>());
        synchronized (waiting) {
            waiting.add(waiter);
        }
        if (acknowledged >= end) { // a report that came in meanwhile may have missed it
            release();
        }
        return waiter.done;
    }

    @Override
    public void acknowledged(Object link, long offset) {
        synchronized (waiting) {
            reports.merge(link, offset, Math::max);
            acknowledged = Math.max(acknowledged, offset);
        }
        release();
    }

    /** The furthest offset a connected slave reported, or -1. */
    public long acknowledged() {
        return acknowledged;
    }

    /** A slave went away: what it reported no longer counts; with none left, waiting sends get SLAVE_NOT_AVAILABLE. */
    @Override
    public void slaveGone(Object link) {
        boolean none;
        synchronized (waiting) {
            reports.remove(link);
            acknowledged = reports.values().stream().mapToLong(Long::longValue).max().orElse(-1);
            none = reports.isEmpty();
        }
        if (none) {
            drain(ReplicaOutcome.SLAVE_NOT_AVAILABLE);
        }
    }

    /** Slaves that have reported and are still connected. */
    public int slaves() {
        synchronized (waiting) {
            return reports.size();
        }
    }

    /** Answers TIMED_OUT to the sends that waited past the timeout; run periodically. */
    public void expireOverdue() {
        long now = clock.nanos();
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
