package dev.ferry.format;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread source of a part run outside a container that gives it one: daemon threads named
 * {@code <prefix>-<n>}, so that none keeps its JVM (or an OSGi framework's) alive. Thread-safe.
 */
public final class DaemonThreads implements ThreadFactory {
    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    public DaemonThreads(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
