package dev.ferry.liberty.bench.apps;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;

/** Counts deliveries and remembers when the first and the last happened. */
@ApplicationScoped
public class Throughput {
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong firstNanos = new AtomicLong();
    private volatile long lastNanos;

    public void delivered() {
        delivered(1);
    }

    /** {@code messages} deliveries at once: a batch bean's call. */
    public void delivered(int messages) {
        long now = System.nanoTime();
        firstNanos.compareAndSet(0, now);
        count.addAndGet(messages);
        lastNanos = now;
    }

    public Figures figures() {
        long first = firstNanos.get();
        return new Figures(count.get(), first == 0 ? 0 : (lastNanos - first) / 1_000_000.0);
    }

    /** Deliveries so far and the milliseconds between the first and the last. */
    public record Figures(long count, double millis) {
    }
}
