package dev.ferry.remoting;

/**
 * Decides, before a request reaches its processor, whether it may: authentication and authorization. Runs first on
 * the thread that processes the request: the processor's executor, or, for the requests a code's {@link InlineRule}
 * picks, the event loop that read it. It must only do bounded work on the request itself (a signature over the frame,
 * lookups in memory), never I/O.
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
