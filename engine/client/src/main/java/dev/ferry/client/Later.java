package dev.ferry.client;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Runs a task after a delay: on the client's scheduler, or by a test's hand. */
@FunctionalInterface
interface Later {
    /** Runs {@code task} after {@code delay} (at once for zero); does nothing once the client is closing. */
    void after(Duration delay, Runnable task);

    static Later on(ScheduledExecutorService scheduler) {
        return (delay, task) -> {
            try {
                scheduler.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the client is closing
            }
        };
    }
}
