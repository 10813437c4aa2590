package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A client connection as the broker's tables see it, without a socket: always active, and
 * recording the oneway requests the broker sends over it.
 *
 * @param id       the connection's id
 * @param oneway   where oneway requests are recorded
 * @param ioThread the connection's own thread, if it has one (a real connection's event loop)
 */
record FakeChannel(String id, List<RemotingCommand> oneway, Optional<Executor> ioThread) implements RemoteChannel {

    FakeChannel(String id) {
        this(id, new java.util.concurrent.CopyOnWriteArrayList<>());
    }

    FakeChannel(String id, List<RemotingCommand> oneway) {
        this(id, oneway, Optional.empty());
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 1);
    }

    @Override
    public boolean isActive() {
        return true;
    }

    @Override
    public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public RemotingCommand invokeSync(RemotingCommand request, Duration timeout) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void invokeOneway(RemotingCommand request, Duration timeout) {
        oneway.add(request);
    }

    @Override
    public void close() {
    }
}
