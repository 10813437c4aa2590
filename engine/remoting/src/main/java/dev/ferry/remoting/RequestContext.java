package dev.ferry.remoting;

/** What a {@link RequestProcessor} knows of a request besides the command itself. */
public interface RequestContext {

    /** The connection the request came in on; requests can be sent back over it. */
    RemoteChannel channel();

    /**
     * Sends a response to the request later (after {@code process} returned {@code null}). The
     * response's opaque and response flag are set from the request. Does nothing for oneway
     * requests or when the connection has closed. Safe from any thread, at most once.
     *
     * <p>A processor that answers later must call this exactly once, even when it gives the request up (its
     * connection closed, say): until then the request counts against the server's inbound budget.
     */
    void respond(RemotingCommand response);
}
