package dev.ferry.remoting.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Shuts several clients down at once and returns when all are down. An Apache RocketMQ client's shutdown waits up to
 * 3 s for its remoting event thread (which polls its queue every 3 s); run one after another, a teardown closing n
 * clients waits about 3n s, together about 3 s. Use it only for clients that do not depend on each other's shutdown:
 * a shutdown that must finish before the next step starts (offsets committed before a check, a new client reusing
 * the instance name) stays a plain sequential call.
 */
public final class ClientShutdowns {
    private ClientShutdowns() {
    }

    /**
     * Runs every shutdown on its own thread and waits for all of them. A shutdown that throws does not stop the
     * others; the first failure is rethrown afterwards with the rest suppressed.
     */
    public static void together(Runnable... shutdowns) {
        together(List.of(shutdowns));
    }

    /** As {@link #together(Runnable...)}. */
    public static void together(List<? extends Runnable> shutdowns) {
        if (shutdowns.size() == 1) {
            shutdowns.get(0).run();
            return;
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(shutdowns.size());
        for (Runnable shutdown : shutdowns) {
            Thread thread = new Thread(() -> {
                try {
                    shutdown.run();
                } catch (Throwable t) {
                    if (!failure.compareAndSet(null, t)) {
                        failure.get().addSuppressed(t);
                    }
                }
            }, "client-shutdown-" + threads.size());
            threads.add(thread);
            thread.start();
        }
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the clients are still closing: wait for them, then restore the flag
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = failure.get();
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first instanceof Error error) {
            throw error;
        }
        if (first != null) {
            throw new IllegalStateException("a client's shutdown failed", first);
        }
    }
}
