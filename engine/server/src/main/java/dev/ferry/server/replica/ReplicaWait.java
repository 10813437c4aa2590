package dev.ferry.server.replica;

import java.util.concurrent.CompletableFuture;

/** How a send waits for slaves before it is answered. */
@FunctionalInterface
public interface ReplicaWait {
    /** Nothing to wait for: an ASYNC_MASTER's sends are answered once stored. */
    ReplicaWait NONE = (end, masterEnd) -> CompletableFuture.completedFuture(ReplicaOutcome.REPLICATED);

    /**
     * Completes once a slave has the commit log up to {@code end}, or when it cannot be waited for.
     *
     * @param masterEnd where the master's commit log ends now, to judge how far behind slaves are
     */
    CompletableFuture<ReplicaOutcome> replicated(long end, long masterEnd);
}
