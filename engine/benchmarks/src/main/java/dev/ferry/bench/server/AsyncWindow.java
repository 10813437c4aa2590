package dev.ferry.bench.server;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/** Issues asynchronous sends with at most a fixed number unanswered, whichever client sends them. */
final class AsyncWindow {

    /** One asynchronous send; it calls {@code done} once, with the failure or {@code null}. */
    interface Send {
        void start(Consumer<Throwable> done) throws Exception;
    }

    private AsyncWindow() {
    }

    /**
     * Issues up to {@code count} sends for at most {@code duration}, {@code inFlight} unanswered at a time, waits
     * for every answer, and returns how many succeeded.
     */
    static long run(int inFlight, long count, Duration duration, Send send) throws Exception {
        Semaphore permits = new Semaphore(inFlight);
        AtomicLong acknowledged = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long end = System.nanoTime() + duration.toNanos();
        long issued = 0;
        while (issued < count && System.nanoTime() < end) {
            permits.acquire();
            issued++;
            send.start(error -> {
                if (error == null) {
                    acknowledged.incrementAndGet();
                } else {
                    failure.compareAndSet(null, error);
                }
                permits.release();
            });
        }
        permits.acquire(inFlight); // every send answered
        permits.release(inFlight);
        if (failure.get() != null && acknowledged.get() < issued) {
            System.out.println("  (" + (issued - acknowledged.get()) + " async sends failed: " + failure.get() + ")");
        }
        return acknowledged.get();
    }
}
