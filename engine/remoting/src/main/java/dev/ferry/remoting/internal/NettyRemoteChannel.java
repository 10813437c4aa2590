package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** A Netty channel seen as a {@link RemoteChannel}; one per connection, kept as a channel attribute. */
public final class NettyRemoteChannel implements RemoteChannel {
    private static final AttributeKey<NettyRemoteChannel> KEY = AttributeKey.valueOf(NettyRemoteChannel.class, "remote");

    private final Channel channel;
    private final ChannelInvoker invoker;
    private final Optional<Executor> ioThread;

    private NettyRemoteChannel(Channel channel, ChannelInvoker invoker) {
        this.channel = channel;
        this.invoker = invoker;
        this.ioThread = Optional.of(channel.eventLoop());
    }

    /** The remote view of {@code channel}, created on first use. */
    public static NettyRemoteChannel of(Channel channel, ChannelInvoker invoker) {
        NettyRemoteChannel existing = channel.attr(KEY).get();
        if (existing != null) {
            return existing;
        }
        NettyRemoteChannel created = new NettyRemoteChannel(channel, invoker);
        existing = channel.attr(KEY).setIfAbsent(created);
        return existing != null ? existing : created;
    }

    public Channel nettyChannel() {
        return channel;
    }

    @Override
    public String id() {
        return channel.id().asShortText();
    }

    @Override
    public SocketAddress remoteAddress() {
        return channel.remoteAddress();
    }

    @Override
    public boolean isActive() {
        return channel.isActive();
    }

    /** The connection's event loop. */
    @Override
    public Optional<Executor> ioThread() {
        return ioThread;
    }

    @Override
    public CompletableFuture<RemotingCommand> invokeAsync(RemotingCommand request, Duration timeout) {
        return invoker.invokeAsync(channel, request, timeout);
    }

    @Override
    public RemotingCommand invokeSync(RemotingCommand request, Duration timeout) {
        return invoker.invokeSync(channel, request, timeout);
    }

    @Override
    public void invokeOneway(RemotingCommand request, Duration timeout) {
        invoker.invokeOneway(channel, request, timeout);
    }

    @Override
    public void close() {
        channel.close();
    }

    @Override
    public String toString() {
        return "channel " + id() + " " + channel.remoteAddress();
    }
}
