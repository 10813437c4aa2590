package dev.ferry.bench.server;

import java.util.Arrays;

/**
 * Where the slow messages of a latency run lost their time: before the broker stored them (the producer, the
 * connection, the broker's send path) or after (the broker's delivery, the consumer). Whole milliseconds, from the
 * sender's and the listener's wall clocks and the broker's store timestamp, all on one machine.
 */
final class SlowMessages {
    static final long THRESHOLD_MICROS = 3_000;
    /** Buckets of one millisecond; the last one holds everything longer. */
    private static final int BUCKETS = 16;

    private final long[] beforeStore = new long[BUCKETS];
    private final long[] afterStore = new long[BUCKETS];
    private long count;

    synchronized void record(long latencyMicros, long sentMillis, long storedMillis, long receivedMillis) {
        if (latencyMicros < THRESHOLD_MICROS) {
            return;
        }
        count++;
        beforeStore[bucket(storedMillis - sentMillis)]++;
        afterStore[bucket(receivedMillis - storedMillis)]++;
    }

    private static int bucket(long millis) {
        return (int) Math.min(BUCKETS - 1, Math.max(0, millis));
    }

    @Override
    public synchronized String toString() {
        return count + " messages of " + THRESHOLD_MICROS / 1000 + " ms or more; how many lost 0, 1, ... "
                + (BUCKETS - 1) + "+ ms before the store " + Arrays.toString(beforeStore) + ", after it "
                + Arrays.toString(afterStore);
    }
}
