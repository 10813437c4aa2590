package dev.ferry.bench.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/** Synchronous sends from several threads for a while, whichever client sends them. */
final class SyncSendLoop {

    /** One synchronous send; true when the broker stored it. */
    interface Send {
        boolean send() throws Exception;
    }

    private SyncSendLoop() {
    }

    /** Messages per second that {@code threads} threads sent (and the broker stored) during {@code duration}. */
    static double run(int threads, Duration duration, Send send) throws Exception {
        AtomicLong sent = new AtomicLong();
        long end = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        if (send.send()) {
                            sent.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
            return sent.get() / ((System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdown();
        }
    }
}
