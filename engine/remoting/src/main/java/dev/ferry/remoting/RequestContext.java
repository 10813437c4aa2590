package dev.ferry.remoting;

/** What a {@link RequestProcessor} knows of a request besides the command itself. */
public interface RequestContext {

    /** The connection the request came in on; requests can be sent back over it. */
    RemoteChannel channel();

    /**
     * Sends a response to the request later (after {@code process} returned {@code null}). The
     * response's opaque and response flag are set from the request. Does nothing for oneway
     * requests or when the connection has closed. Safe from any thread, at most once.
     */
    void respond(RemotingCommand response);
}
