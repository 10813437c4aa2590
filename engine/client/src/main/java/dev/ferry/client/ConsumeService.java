package dev.ferry.client;

import dev.ferry.api.ReceivedMessage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** Hands a push consumer's pulled messages to its listener: concurrently, or in queue order. */
interface ConsumeService {

    /** Queues messages just pulled from {@code queue} (and recorded in it) for the listener. */
    void submit(ProcessQueue queue, List<ReceivedMessage> messages);

    /** The queues paused on a poison message. */
    List<PausedQueue> paused();

    /**
     * Ends the pause of {@code queue}: its poison message is delivered again (its failures forgotten), or with
     * {@code skip} moved to the dead-letter queue; the queue's other messages follow in order.
     *
     * @return whether the queue was paused
     * @throws RuntimeException when the skipped message could not be moved (the queue stays paused)
     */
    boolean resume(ProcessQueue queue, boolean skip);

    /**
     * The consumer begins to close: from now on a listener failure is no consumption attempt (the listener may
     * fail because its container is going away). Called before anything else in the consumer's close.
     */
    default void beginShutdown() {
    }

    /** Lets running listener calls finish (up to {@code timeout}), then stops the threads. */
    void shutdown(Duration timeout);

    /** Stops {@code pool} after its running tasks finished, or interrupts them after {@code timeout}. */
    static void shutdown(ExecutorService pool, Duration timeout) {
        pool.shutdown();
        try {
            if (!pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                pool.shutdownNow();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
