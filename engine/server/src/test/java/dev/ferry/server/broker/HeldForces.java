package dev.ferry.server.broker;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

/**
 * Store threads for a sync-flush store whose forces are held: the group-commit loop starts only once {@link #release}
 * is called, so until then no sync-flush append can become durable and a caller that waited for one would wait for
 * good. Every other loop runs as usual.
 */
final class HeldForces implements ThreadFactory {
    private static final String GROUP_COMMIT = "ferry-store-group-commit";

    private final CountDownLatch released = new CountDownLatch(1);

    @Override
    public Thread newThread(Runnable task) {
        Runnable held = !GROUP_COMMIT.equals(task.toString()) ? task : () -> {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            task.run();
        };
        Thread thread = new Thread(held, "held-" + task);
        thread.setDaemon(true);
        return thread;
    }

    void release() {
        released.countDown();
    }
}
