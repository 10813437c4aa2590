package dev.ferry.remoting;

/**
 * Told of every request a server answered and how long the answer took from the request's dispatch: what RPC
 * latency metrics are made of. Called on the thread that answers (a processor's, or whichever completed a deferred
 * answer), so it must only record, never block.
 */
@FunctionalInterface
public interface RequestObserver {
    /** Observes nothing. */
    RequestObserver NONE = (requestCode, responseCode, nanos, deferred) -> { };

    /**
     * @param deferred whether the answer came after the processor returned (a held pull, a send waiting for its flush)
     */
    void answered(int requestCode, int responseCode, long nanos, boolean deferred);
}
