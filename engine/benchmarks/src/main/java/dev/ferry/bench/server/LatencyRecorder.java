package dev.ferry.bench.server;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * What a latency run's listener records, whichever client it runs in: the send-to-listener time of every message
 * sent from the start of the measured window on (earlier ones are the warm-up), and where the slow ones lost it.
 */
final class LatencyRecorder {
    /** Due time (nanoTime) of the first measured send; nothing is measured while it is unset. */
    private static final long NOT_MEASURING = Long.MIN_VALUE;

    private final Histogram histogram = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    private final SlowMessages slow = new SlowMessages();
    private final AtomicLong measuredFrom = new AtomicLong(NOT_MEASURING);
    private final AtomicLong received = new AtomicLong();

    /** Measures the messages sent at or after {@code fromNanos}, the due time of the first measured send. */
    void startMeasuring(long fromNanos) {
        measuredFrom.set(fromNanos);
    }

    /**
     * A message reached the listener at {@code nowNanos} / {@code nowMillis}; {@code sentNanos} and {@code sentMillis}
     * are its properties (null when it is not one of the run's), {@code storedMillis} the broker's store timestamp.
     */
    void received(long nowNanos, long nowMillis, String sentNanos, String sentMillis, long storedMillis) {
        long from = measuredFrom.get();
        if (sentNanos == null || from == NOT_MEASURING) {
            return;
        }
        long sentAt = Long.parseLong(sentNanos);
        if (sentAt - from < 0) {
            return;
        }
        long micros = Math.max(0, (nowNanos - sentAt) / 1000);
        synchronized (histogram) {
            histogram.recordValue(micros);
        }
        slow.record(micros, Long.parseLong(sentMillis), storedMillis, nowMillis);
        received.incrementAndGet();
    }

    /** Waits up to 30 s for {@code total} measured messages, the tail of the measured traffic. */
    void awaitAll(long total) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (received.get() < total && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    Histogram histogram() {
        return histogram;
    }

    SlowMessages slow() {
        return slow;
    }
}
