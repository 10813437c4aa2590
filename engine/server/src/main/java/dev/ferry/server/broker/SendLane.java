package dev.ferry.server.broker;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The executor of the requests that write to the store in arrival order (sends, send-backs, transaction ends),
 * counting the tasks given it and not yet finished, so that a send may skip it while it has nothing to do
 * ({@link InlineSends}). A task counts from the moment it is given until it has run: while a connection's send waits
 * or runs here, that connection's next send comes here too, behind it, and sends keep the order they arrived in.
 */
final class SendLane implements Executor {
    private final Executor threads;
    private final AtomicInteger unfinished = new AtomicInteger();

    SendLane(Executor threads) {
        this.threads = Objects.requireNonNull(threads, "threads");
    }

    @Override
    public void execute(Runnable task) {
        unfinished.incrementAndGet();
        try {
            threads.execute(() -> {
                try {
                    task.run();
                } finally {
                    unfinished.decrementAndGet();
                }
            });
        } catch (RuntimeException e) { // refused (a full queue): it never runs, so it never counted
            unfinished.decrementAndGet();
            throw e;
        }
    }

    /** Whether no task given to the lane is waiting or running. */
    boolean idle() {
        return unfinished.get() == 0;
    }
}
