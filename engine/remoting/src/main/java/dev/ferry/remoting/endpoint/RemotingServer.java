package dev.ferry.remoting.endpoint;

import dev.ferry.format.Clock;
import dev.ferry.remoting.ConnectionListener;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.ListenException;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.RequestGuard;
import dev.ferry.remoting.RequestObserver;
import dev.ferry.remoting.RequestProcessor;
import dev.ferry.remoting.TlsConfig;
import dev.ferry.remoting.internal.ConnectionSlots;
import dev.ferry.remoting.internal.EndpointRuntime;
import dev.ferry.remoting.internal.EventLoops;
import dev.ferry.remoting.internal.InboundBudget;
import dev.ferry.remoting.internal.OutboundBudget;
import dev.ferry.remoting.internal.TlsContexts;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Accepts connections and serves remoting requests.
 *
 * <p>Event loops only frame, decode and dispatch; each request code is processed on the
 * executor registered with its processor. The server can also send requests to a connected
 * client through the {@link RemoteChannel} a processor or a {@link ConnectionListener} sees.
 * Register processors and listeners before {@link #start()}. {@link #close()} stops accepting,
 * lets running processors finish (up to the configured shutdown timeout), then closes every
 * connection.
 */
public final class RemotingServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RemotingServer.class.getName());

    private final RemotingServerConfig config;
    private final ThreadFactory threadFactory;
    private final EndpointRuntime runtime;
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    private final ConnectionSlots slots;
    private final SslContext sslContext;
    private EventLoopGroup bossGroup;
    private EventLoopGroup ioGroup;
    private Channel serverChannel;
    private volatile boolean closed;

    /** A server whose threads are named daemon threads, on the system's clock. */
    public RemotingServer(RemotingServerConfig config) {
        this(config, new DefaultThreadFactory("ferry-remoting-server", true), Clock.system());
    }

    /**
     * A server whose threads all come from {@code threadFactory} (an app server's, say), whose timeouts and stalls
     * {@code clock} measures.
     */
    public RemotingServer(RemotingServerConfig config, ThreadFactory threadFactory, Clock clock) {
        this.config = Objects.requireNonNull(config, "config");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.sslContext = config.tls().enabled() ? TlsContexts.forServer(config.tls()) : null;
        this.slots = new ConnectionSlots(config.maxConnections(), config.maxConnectionsPerAddress(), clock);
        this.runtime = new EndpointRuntime(threadFactory, 1, config.asyncPermits(), config.onewayPermits(),
                config.maxFrameLength(), config.maxIdleTime(), config.scanInterval(), null,
                new InboundBudget(config.maxInboundBytes(), config.maxInboundBytesPerConnection()),
                config.frameTimeout(), new OutboundBudget(config.maxOutboundBytes(), config.writeBufferHighWaterMark()),
                config.writeStallTimeout(), clock);
    }

    /** Routes requests with {@code code} to {@code processor}, run on {@code executor}. */
    public void registerProcessor(int code, RequestProcessor processor, Executor executor) {
        runtime.dispatcher().register(code, processor, executor);
    }

    /**
     * Routes requests with {@code code} to {@code processor}: those {@code inline} picks run on the event loop that
     * read them, the others on {@code executor}.
     */
    public void registerProcessor(int code, RequestProcessor processor, Executor executor, InlineRule inline) {
        runtime.dispatcher().register(code, processor, executor, inline);
    }

    /** Checks every request before its processor: who sends it, and whether they may. */
    public void guard(RequestGuard guard) {
        runtime.dispatcher().guard(guard);
    }

    /** Is told of every request answered and how long the answer took. */
    public void observe(RequestObserver observer) {
        runtime.dispatcher().observe(observer);
    }

    /** Requests the guard refused since start. */
    public long refusedRequests() {
        return runtime.dispatcher().refused();
    }

    public void addConnectionListener(ConnectionListener listener) {
        runtime.addListener(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Binds and starts accepting.
     *
     * @throws RemotingException when the address cannot be bound
     */
    public synchronized RemotingServer start() {
        if (serverChannel != null) {
            throw new IllegalStateException("already started");
        }
        bossGroup = new NioEventLoopGroup(1, threadFactory);
        ioGroup = new NioEventLoopGroup(config.ioThreads(), threadFactory);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(bossGroup, ioGroup)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, false)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                        config.writeBufferLowWaterMark(), config.writeBufferHighWaterMark()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        admit(ch);
                    }
                });
        try {
            serverChannel = bootstrap.bind(config.host(), config.port()).syncUninterruptibly().channel();
        } catch (Exception e) {
            shutdownGroups();
            runtime.close();
            throw new ListenException(config.host(), config.port(), e);
        }
        if (sslContext == null) {
            LOG.log(System.Logger.Level.INFO, "remoting server listening on {0}", serverChannel.localAddress());
        } else {
            LOG.log(System.Logger.Level.INFO, "remoting server listening on {0}, TLS {1} by {2}",
                    serverChannel.localAddress(), config.tls().mode().name().toLowerCase(Locale.ROOT),
                    TlsContexts.providerName());
        }
        return this;
    }

    private void admit(SocketChannel ch) {
        ConnectionSlots.Admission admission = slots.admit(ch, ch.remoteAddress().getAddress());
        admission.evicted().ifPresent(victim -> {
            if (rarely(slots.evicted())) {
                LOG.log(System.Logger.Level.WARNING, "closing connection {0} to make room for {1}: {2}; {3} closed "
                        + "so since start", victim.remoteAddress(), ch.remoteAddress(), admission.reason(),
                        slots.evicted());
            }
            victim.close();
        });
        if (admission.slot().isEmpty()) {
            if (rarely(slots.refused())) {
                LOG.log(System.Logger.Level.WARNING, "refusing connection {0}: {1}; {2} refused since start",
                        ch.remoteAddress(), admission.reason(), slots.refused());
            }
            ch.close();
            return;
        }
        ch.closeFuture().addListener(closed -> slots.release(ch));
        connections.add(ch);
        runtime.initPipeline(ch.pipeline(), tlsHandler(ch), slots, admission.slot().get(),
                config.firstRequestTimeout());
    }

    /** The first and every thousandth connection turned away is logged, so a flood cannot flood the log. */
    private static boolean rarely(long count) {
        return count == 1 || count % 1000 == 0;
    }

    /** Connections refused since start: their source address had its share open, each having sent requests. */
    public long refusedConnections() {
        return slots.refused();
    }

    /** Connections closed since start to make room for a new one (they had not sent a request, or were idlest). */
    public long evictedConnections() {
        return slots.evicted();
    }

    /** Requests refused as malformed or invalid since start. */
    public long badRequests() {
        return runtime.dispatcher().badRequests();
    }

    /**
     * Connections closed because a frame could not be decoded (a bad header, a length out of bounds), since start:
     * each closed only its own connection.
     */
    public long malformedFrames() {
        return runtime.malformedFrames();
    }

    /** Requests whose processor failed unexpectedly since start (each is logged; there should be none). */
    public long processorFailures() {
        return runtime.dispatcher().failures();
    }

    /** Bytes the frames of requests being received, processed or answered (until written) hold now. */
    public long inboundBytes() {
        return runtime.inboundBudget().used();
    }

    /**
     * Bytes the answers not yet written hold now: their headers, and their bodies but those written from the store's
     * files without a copy.
     */
    public long outboundBytes() {
        return runtime.outboundBudget().used();
    }

    /**
     * Connections closed since start because an answer came for them while they were behind and the server held more
     * answers than its budget.
     */
    public long answerRefusedConnections() {
        return runtime.outboundBudget().refused();
    }

    /** Connections closed since start because their client took no byte of their answers for the stall timeout. */
    public long stalledConnections() {
        return runtime.outboundBudget().stalled();
    }

    private ChannelHandler tlsHandler(SocketChannel ch) {
        if (sslContext == null) {
            return null;
        }
        return config.tls().mode() == TlsConfig.Mode.PERMISSIVE
                ? new OptionalSslHandler(sslContext) : sslContext.newHandler(ch.alloc());
    }

    /** The bound address (after {@link #start()}). */
    public InetSocketAddress localAddress() {
        if (serverChannel == null) {
            throw new IllegalStateException("not started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The bound port (after {@link #start()}). */
    public int port() {
        return localAddress().getPort();
    }

    /** Connections open now. */
    public int connectionCount() {
        return connections.size();
    }

    @Override
    public synchronized void close() {
        close(() -> { });
    }

    /**
     * Closes as {@link #close()} does, running {@code beforeConnectionsClose} once the processors are idle and before
     * the connections close: the moment to answer requests a processor left for later (with
     * {@link RequestContext#respond}), whose answers would otherwise find their connections gone.
     */
    public synchronized void close(Runnable beforeConnectionsClose) {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        runtime.awaitIdleProcessors(config.shutdownTimeout());
        try {
            beforeConnectionsClose.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "closing: the last answers failed", e);
        }
        connections.close().awaitUninterruptibly(config.shutdownTimeout().toMillis() + 1000);
        shutdownGroups();
        runtime.close();
        LOG.log(System.Logger.Level.INFO, "remoting server stopped");
    }

    private void shutdownGroups() {
        if (bossGroup != null) {
            EventLoops.shutdown(bossGroup, "remoting server acceptor");
        }
        if (ioGroup != null) {
            EventLoops.shutdown(ioGroup, "remoting server I/O");
        }
    }
}
