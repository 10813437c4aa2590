package dev.ferry.format;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names of the threads one factory makes: {@code <role>-<n>} for a task carrying a {@link ThreadRoles role}, counted
 * per role, and {@code <prefix>-<n>} for any other. Thread-safe.
 */
public final class ThreadNames {
    private final String prefix;
    private final ConcurrentMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public ThreadNames(String prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** The name of the next thread to run {@code task}. */
    public String next(Runnable task) {
        String base = ThreadRoles.roleOf(task).orElse(prefix);
        return base + "-" + counts.computeIfAbsent(base, b -> new AtomicInteger()).incrementAndGet();
    }
}
