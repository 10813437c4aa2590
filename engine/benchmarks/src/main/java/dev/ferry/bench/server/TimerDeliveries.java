package dev.ferry.bench.server;

import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What a timer-lateness run's listener saw: for every timer message the run sent (numbered 0 to {@code total - 1},
 * the number in its key), whether its send was acknowledged and how often it arrived; for the measured ones (from
 * {@code firstMeasured} on), how late they arrived after the time they asked for. Called from the producer's callback
 * threads and the consumer's listener threads at once.
 */
final class TimerDeliveries {
    /** The key prefix of the run's timer messages; the rest of the key is the message's number. */
    static final String KEY_PREFIX = "timer-";

    private static final int UNANSWERED = 0;
    private static final int ACKNOWLEDGED = 1;
    private static final int FAILED = 2;
    private static final long MAX_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final int total;
    private final int firstMeasured;
    private final AtomicIntegerArray sendOutcome;
    private final AtomicIntegerArray arrivals;
    /** Receive time minus requested time, microseconds; early arrivals are counted apart, not recorded here. */
    private final Histogram lateness = new Histogram(MAX_MICROS, 3);
    /** The broker's TIMER_DEQUEUE_MS minus requested time (firing), microseconds. */
    private final Histogram firing = new Histogram(MAX_MICROS, 3);
    /** Receive time minus TIMER_DEQUEUE_MS (the re-stored message's way to the listener), microseconds. */
    private final Histogram delivery = new Histogram(MAX_MICROS, 3);
    /** The fired message's store timestamp minus TIMER_DEQUEUE_MS (the broker storing it again), microseconds. */
    private final Histogram restoring = new Histogram(MAX_MICROS, 3);
    /** Receive time minus the fired message's store timestamp (the pull and the client), microseconds. */
    private final Histogram pulling = new Histogram(MAX_MICROS, 3);
    private final AtomicLong early = new AtomicLong();
    private final AtomicLong mostEarlyMicros = new AtomicLong();
    private final AtomicLong distinct = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong withoutDequeueTime = new AtomicLong();

    TimerDeliveries(int total, int firstMeasured) {
        if (total < 1 || firstMeasured < 0 || firstMeasured >= total) {
            throw new IllegalArgumentException("total " + total + " and first measured " + firstMeasured
                    + " do not describe a run");
        }
        this.total = total;
        this.firstMeasured = firstMeasured;
        this.sendOutcome = new AtomicIntegerArray(total);
        this.arrivals = new AtomicIntegerArray(total);
    }

    static String key(int number) {
        return KEY_PREFIX + number;
    }

    /** The broker answered the send of message {@code number}: stored, or not. */
    void answered(int number, boolean stored) {
        if (sendOutcome.compareAndSet(number, UNANSWERED, stored ? ACKNOWLEDGED : FAILED)) {
            answered.incrementAndGet();
            if (!stored) {
                failed.incrementAndGet();
            }
        }
    }

    /**
     * A message reached the listener at {@code now}, with its keys, the delivery time the run asked for
     * ({@code requestedMs}, from its own property), the broker's TIMER_DEQUEUE_MS ({@code dequeueMs}, null when absent)
     * and its store timestamp ({@code storedMs}, for a fired message when the broker stored it in its topic). Returns
     * whether it was one of the run's timer messages.
     */
    boolean received(Instant now, String keys, String requestedMs, String dequeueMs, long storedMs) {
        long nowMicros = TimeUnit.SECONDS.toMicros(now.getEpochSecond()) + TimeUnit.NANOSECONDS.toMicros(now.getNano());
        int number = number(keys);
        if (number < 0 || requestedMs == null) {
            return false;
        }
        if (arrivals.getAndIncrement(number) == 0) {
            distinct.incrementAndGet();
        }
        long requestedMicros = TimeUnit.MILLISECONDS.toMicros(Long.parseLong(requestedMs));
        long late = nowMicros - requestedMicros;
        if (late < 0) {
            early.incrementAndGet();
            mostEarlyMicros.accumulateAndGet(-late, Math::max);
        }
        if (number < firstMeasured) {
            return true;
        }
        record(lateness, late);
        if (dequeueMs == null) {
            withoutDequeueTime.incrementAndGet();
        } else {
            long dequeueMicros = TimeUnit.MILLISECONDS.toMicros(Long.parseLong(dequeueMs));
            record(firing, dequeueMicros - requestedMicros);
            record(delivery, nowMicros - dequeueMicros);
            long storedMicros = TimeUnit.MILLISECONDS.toMicros(storedMs);
            record(restoring, storedMicros - dequeueMicros);
            record(pulling, nowMicros - storedMicros);
        }
        return true;
    }

    /** The message number in a key of the run's, or -1 for anything else (the probes, a stranger's message). */
    private int number(String keys) {
        if (keys == null || !keys.startsWith(KEY_PREFIX)) {
            return -1;
        }
        try {
            int number = Integer.parseInt(keys.substring(KEY_PREFIX.length()));
            return number >= 0 && number < total ? number : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void record(Histogram histogram, long micros) {
        synchronized (histogram) {
            histogram.recordValue(Math.min(MAX_MICROS, Math.max(0, micros)));
        }
    }

    /** Whether every send has been answered and every acknowledged message has arrived at least once. */
    boolean complete() {
        return answered.get() == total && distinct.get() == total - failed.get();
    }

    /** Acknowledged messages that never arrived. */
    long missing() {
        long count = 0;
        for (int i = 0; i < total; i++) {
            if (sendOutcome.get(i) == ACKNOWLEDGED && arrivals.get(i) == 0) {
                count++;
            }
        }
        return count;
    }

    /** Arrivals beyond each message's first. */
    long duplicates() {
        long count = 0;
        for (int i = 0; i < total; i++) {
            count += Math.max(0, arrivals.get(i) - 1);
        }
        return count;
    }

    int total() {
        return total;
    }

    long early() {
        return early.get();
    }

    long mostEarlyMicros() {
        return mostEarlyMicros.get();
    }

    long failed() {
        return failed.get();
    }

    long unanswered() {
        return total - answered.get();
    }

    long withoutDequeueTime() {
        return withoutDequeueTime.get();
    }

    Histogram lateness() {
        return copy(lateness);
    }

    Histogram firing() {
        return copy(firing);
    }

    Histogram delivery() {
        return copy(delivery);
    }

    Histogram restoring() {
        return copy(restoring);
    }

    Histogram pulling() {
        return copy(pulling);
    }

    private static Histogram copy(Histogram histogram) {
        synchronized (histogram) {
            return histogram.copy();
        }
    }
}
