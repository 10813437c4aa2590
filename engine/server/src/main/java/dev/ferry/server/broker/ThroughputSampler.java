package dev.ferry.server.broker;

import java.util.function.LongSupplier;

/**
 * Messages per second over the last 10 s, 60 s and 600 s of a running total, as GET_BROKER_RUNTIME_INFO reports
 * {@code putTps} and {@code getTransferredTps}: {@link #sample} is run once a second and keeps the last 601 totals.
 * Until a window has passed, its rate is over the time sampled so far.
 */
final class ThroughputSampler {
    private static final int SLOTS = 601;
    private final LongSupplier total;
    private final long[] totals = new long[SLOTS];
    private int cursor;
    private int samples;

    ThroughputSampler(LongSupplier total) {
        this.total = total;
    }

    synchronized void sample() {
        totals[cursor] = total.getAsLong();
        cursor = (cursor + 1) % SLOTS;
        samples = Math.min(samples + 1, SLOTS);
    }

    /** Per second over the last {@code seconds} seconds sampled (at most 600). */
    synchronized double perSecond(int seconds) {
        if (samples < 2) {
            return 0;
        }
        int span = Math.min(seconds, samples - 1);
        long newest = totals[Math.floorMod(cursor - 1, SLOTS)];
        long oldest = totals[Math.floorMod(cursor - 1 - span, SLOTS)];
        return (newest - oldest) / (double) span;
    }

    /** Apache's form: the 10 s, 60 s and 600 s rates, separated by spaces. */
    String windows() {
        return perSecond(10) + " " + perSecond(60) + " " + perSecond(600);
    }
}
