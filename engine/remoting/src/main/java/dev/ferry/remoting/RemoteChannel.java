package dev.ferry.remoting;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One connection as the remoting layer's users see it: a server's view of a client, or a
 * client's of a server. Requests can go both ways; a broker uses this to ask a producer about
 * a transaction or to tell consumers that their group changed.
 */
public interface RemoteChannel {

    /** A stable identifier for logs and tables. */
    String id();

    SocketAddress remoteAddress();

    boolean isActive();

    /** Sends a request and completes with its response, or exceptionally with a {@link RemotingException}. */
    CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, Duration timeout);

    /** Sends a request and waits for its response. */
    RemotingCommand invokeSync(RemotingCommand request, Duration timeout);

    /** Sends a request that expects no response; {@code timeout} bounds the wait for a send permit. */
    void invokeOneway(RemotingCommand request, Duration timeout);

    /** Closes the connection. */
    void close();

    /**
     * The thread that reads and writes this connection, as an executor, when it has one of its own: work handed to it
     * and answered there is written without a further hand-off. Empty by default.
     */
    default Optional<Executor> ioThread() {
        return Optional.empty();
    }
}
