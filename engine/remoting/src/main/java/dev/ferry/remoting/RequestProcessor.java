package dev.ferry.remoting;

/**
 * Handles the requests of one or more request codes. Runs on the executor it was registered
 * with, where it may block; only the requests its {@link InlineRule} picks run on the event loop.
 */
@FunctionalInterface
public interface RequestProcessor {

    /**
     * Processes a request.
     *
     * @return the response, or {@code null} when there is none now: for oneway requests, or
     *         when the processor answers later through {@link RequestContext#respond} (a held
     *         long-poll, for example)
     * @throws Exception answered with SYSTEM_ERROR and the exception's message as remark
     */
    RemotingCommand process(RequestContext context, RemotingCommand request) throws Exception;
}
