package dev.ferry.remoting;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.concurrent.ThreadFactory;

/**
 * Netty keeps caches in thread-locals of every thread that uses it (pooled-buffer caches among them). In an
 * application server a thread may be the server's, lent for as long as a task runs; these factories clear what Netty
 * left on a thread when the task ends, so a thread goes back to its pool carrying nothing of Ferry's.
 */
public final class NettyThreadLocals {
    private NettyThreadLocals() {
    }

    /** {@code threads}, with Netty's thread-locals cleared when each thread's task ends. */
    public static ThreadFactory clearedAfterEachTask(ThreadFactory threads) {
        return task -> threads.newThread(new Runnable() {
            @Override
            public void run() {
                try {
                    task.run();
                } finally {
                    FastThreadLocal.removeAll();
                }
            }

            @Override
            public String toString() {
                return task.toString(); // a loop's role, for the factory
            }
        });
    }
}
