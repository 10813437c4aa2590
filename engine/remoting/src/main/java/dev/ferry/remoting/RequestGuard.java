package dev.ferry.remoting;

/**
 * Decides, before a request reaches its processor, whether it may: authentication and authorization. Runs on the
 * processor's executor, first: a connection's requests all pass one event loop, which a signature check per request
 * would make the slowest part of the path (measured: a third less throughput of sync sends over one connection).
 * Requests a code's {@link InlineRule} picks are checked on the event loop, as they are processed there. It must
 * only do bounded work on the request itself (a signature over the frame, lookups in memory), never I/O.
 */
@FunctionalInterface
public interface RequestGuard {
    /** Lets every request through. */
    RequestGuard OPEN = (channel, request) -> null;

    /**
     * @return {@code null} to let the request through, or the answer that refuses it (its opaque and response flag are
     *         set by the server)
     */
    RemotingCommand check(RemoteChannel channel, RemotingCommand request);
}
