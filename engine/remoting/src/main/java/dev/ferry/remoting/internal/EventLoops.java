package dev.ferry.remoting.internal;

import io.netty.channel.EventLoopGroup;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;

/** Shutting down Netty event loop groups without waiting forever. */
public final class EventLoops {
    private static final System.Logger LOG = System.getLogger(EventLoops.class.getName());
    /** Quiet period 0, at most 2 s to finish queued tasks, then this much more before giving up on the threads. */
    private static final long TERMINATION_TIMEOUT_MILLIS = 5_000;

    private EventLoops() {
    }

    /**
     * Shuts {@code group} down and waits for its threads to end, at most a few seconds: a loop whose thread
     * was never started needs one to terminate, and a thread factory may refuse it (an application server
     * that is stopping refuses new work), which would otherwise hang the caller.
     */
    public static void shutdown(EventLoopGroup group, String what) {
        boolean ended = group.shutdownGracefully(0, 2, TimeUnit.SECONDS)
                .awaitUninterruptibly(TERMINATION_TIMEOUT_MILLIS);
        if (!ended) {
            LOG.log(Level.WARNING, "{0} threads did not end within {1} ms; leaving them", what,
                    String.valueOf(TERMINATION_TIMEOUT_MILLIS));
        }
    }
}
