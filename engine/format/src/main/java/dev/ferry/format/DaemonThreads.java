package dev.ferry.format;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * The thread source of a part run outside a container that gives it one: daemon threads, so that none keeps its JVM
 * (or an OSGi framework's) alive, named for their {@link ThreadRoles role} ({@code <role>-<n>}, counted per role) or
 * else {@code <prefix>-<n>}. Thread-safe.
 */
public final class DaemonThreads implements ThreadFactory {
    private final String prefix;
    private final ConcurrentMap<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final BiFunction<Runnable, String, Thread> kind;

    public DaemonThreads(String prefix) {
        this(prefix, Thread::new);
    }

    /** @param kind makes a thread of a task and a name, of a kind a library wants (Netty's own, for one) */
    public DaemonThreads(String prefix, BiFunction<Runnable, String, Thread> kind) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    @Override
    public Thread newThread(Runnable task) {
        String base = ThreadRoles.roleOf(task).orElse(prefix);
        Thread thread = kind.apply(task, base + "-" + counts.computeIfAbsent(base, b -> new AtomicInteger())
                .incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
