package dev.ferry.remoting.endpoint;

import dev.ferry.format.Clock;
import dev.ferry.remoting.ConnectionListener;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingConnectException;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.RemotingTimeoutException;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.RequestSignature;
import dev.ferry.remoting.internal.EndpointRuntime;
import dev.ferry.remoting.internal.EventLoops;
import dev.ferry.remoting.internal.NettyRemoteChannel;
import dev.ferry.remoting.internal.TlsContexts;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Sends remoting requests to servers addressed as {@code host:port}, one shared connection per
 * address, opened on first use and reopened after it closes.
 *
 * <p>Servers may send requests back over a connection (a broker notifying a consumer);
 * register processors for them as on a {@link RemotingServer}. Thread-safe.
 */
public final class RemotingClient implements AutoCloseable {
    private final RemotingClientConfig config;
    private final EndpointRuntime runtime;
    private final EventLoopGroup ioGroup;
    private final Bootstrap bootstrap;
    private final SslContext sslContext;
    private final Clock clock;
    private final Map<String, ChannelFuture> channels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** A client whose threads are named daemon threads, on the system's clock. */
    public RemotingClient(RemotingClientConfig config) {
        this(config, new DefaultThreadFactory("ferry-remoting-client", true), Clock.system());
    }

    /** A client whose threads all come from {@code threadFactory}, whose timeouts {@code clock} measures. */
    public RemotingClient(RemotingClientConfig config, ThreadFactory threadFactory, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sslContext = config.tls().enabled() ? TlsContexts.forClient(config.tls()) : null;
        this.runtime = new EndpointRuntime(threadFactory, config.callbackThreads(), config.asyncPermits(),
                config.onewayPermits(), config.maxFrameLength(), config.maxIdleTime(), config.scanInterval(),
                config.serializeType(), clock);
        // every request, also one sent over a channel a server's request came in on (a transaction check's answer)
        config.credentials().ifPresent(credentials -> runtime.invoker().decorateRequests(
                request -> RequestSignature.sign(request, credentials)));
        this.ioGroup = new NioEventLoopGroup(config.ioThreads(), threadFactory);
        this.bootstrap = new Bootstrap()
                .group(ioGroup)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis());
    }

    /** The pipeline of a connection to {@code peer}; TLS needs the peer's name to verify it. */
    private ChannelInitializer<SocketChannel> initializer(InetSocketAddress peer) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                runtime.initPipeline(ch.pipeline(), sslContext == null ? null
                        : sslContext.newHandler(ch.alloc(), peer.getHostString(), peer.getPort()));
            }
        };
    }

    /** Routes server-initiated requests with {@code code} to {@code processor}, run on {@code executor}. */
    public void registerProcessor(int code, RequestProcessor processor, Executor executor) {
        runtime.dispatcher().register(code, processor, executor);
    }

    public void addConnectionListener(ConnectionListener listener) {
        runtime.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /** Sends a request and waits for the response. */
    public RemotingCommand invokeSync(String address, RemotingCommand request, Duration timeout) {
        long start = clock.nanos();
        Channel channel = connect(address, timeout);
        Duration left = timeout.minusNanos(clock.nanos() - start);
        if (left.isNegative() || left.isZero()) {
            throw new RemotingTimeoutException("connecting to " + address + " used up the " + timeout.toMillis()
                    + " ms timeout");
        }
        return runtime.invoker().invokeSync(channel, request, left);
    }

    /** Sends a request; the future completes on a callback thread with the response or a {@link RemotingException}. */
    public CompletableFuture<RemotingCommand> invokeAsync(String address, RemotingCommand request, Duration timeout) {
        Channel channel;
        try {
            channel = connect(address, timeout);
        } catch (RemotingException e) {
            return CompletableFuture.failedFuture(e);
        }
        return runtime.invoker().invokeAsync(channel, request, timeout);
    }

    /** Sends a request that expects no response. */
    public void invokeOneway(String address, RemotingCommand request, Duration timeout) {
        runtime.invoker().invokeOneway(connect(address, timeout), request, timeout);
    }


    /** The connection to {@code address}, opened if needed. */
    public RemoteChannel channel(String address) {
        return NettyRemoteChannel.of(connect(address, config.connectTimeout()), runtime.invoker());
    }

    /** Closes the connection to {@code address}, if any; the next call opens a new one. */
    public void closeChannel(String address) {
        ChannelFuture future = channels.remove(address);
        if (future != null) {
            future.channel().close();
        }
    }

    private Channel connect(String address, Duration timeout) {
        if (closed) {
            throw new RemotingConnectException("the client is closed");
        }
        ChannelFuture future = channels.compute(address, (key, existing) -> {
            if (existing != null && (!existing.isDone() || existing.channel().isActive())) {
                return existing;
            }
            InetSocketAddress target = parse(key);
            ChannelFuture connecting = bootstrap.clone().handler(initializer(target)).connect(target);
            connecting.channel().closeFuture().addListener(f -> channels.remove(key, connecting));
            return connecting;
        });
        long waitMillis = Math.min(timeout.toMillis(), config.connectTimeout().toMillis());
        if (!future.awaitUninterruptibly(Math.max(1, waitMillis), TimeUnit.MILLISECONDS)) {
            throw new RemotingConnectException("connecting to " + address + " took longer than " + waitMillis + " ms");
        }
        if (!future.isSuccess()) {
            channels.remove(address, future);
            throw new RemotingConnectException("cannot connect to " + address + ": " + future.cause(), future.cause());
        }
        Channel channel = future.channel();
        if (!channel.isActive()) {
            channels.remove(address, future);
            throw new RemotingConnectException("connection to " + address + " is closed");
        }
        return channel;
    }

    /** Parses {@code host:port}, {@code [v6]:port} included. */
    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("address '" + address + "' is not host:port");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address '" + address + "' has no numeric port", e);
        }
        return new InetSocketAddress(host, port);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ChannelFuture future : channels.values()) {
            future.channel().close();
        }
        channels.clear();
        EventLoops.shutdown(ioGroup, "remoting client I/O");
        runtime.close();
    }
}
