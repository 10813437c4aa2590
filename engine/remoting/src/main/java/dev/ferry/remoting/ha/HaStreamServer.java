package dev.ferry.remoting.ha;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A master's HA port: each slave that connects gets a {@link SlaveLink} streaming the commit log from where the
 * slave says its own ends. {@link #appended()} tells idle links there is more to send; idle links also look every
 * {@value #IDLE_CHECK_MILLIS} ms and send a heartbeat every {@link #HEARTBEAT} of silence, which Apache's slaves
 * expect.
 */
public final class HaStreamServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HaStreamServer.class.getName());
    static final long IDLE_CHECK_MILLIS = 100;
    /** Apache's haSendHeartbeatInterval. */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** A slave that reports nothing for this long is dropped (Apache's haHousekeepingInterval). */
    static final Duration SILENCE = Duration.ofSeconds(20);
    /** Slaves served at once: each may read the whole commit log, so connections beyond are closed. */
    static final int MAX_SLAVES = 16;

    private final String host;
    private final int port;
    private final HaSource source;
    private final HaSlaveListener slaves;
    private final ThreadFactory threads;
    private final LongSupplier nanoTime;
    private final Set<SlaveLink> links = ConcurrentHashMap.newKeySet();
    private EventLoopGroup group;
    private Channel listener;

    public HaStreamServer(String host, int port, HaSource source, HaSlaveListener slaves, ThreadFactory threads,
                             LongSupplier nanoTime) {
        this.host = host;
        this.port = port;
        this.source = source;
        this.slaves = slaves;
        this.threads = threads;
        this.nanoTime = nanoTime;
    }

    /** Listens; returns the bound port. */
    public int start() {
        group = new NioEventLoopGroup(1, threads);
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        if (links.size() >= MAX_SLAVES) {
                            LOG.log(System.Logger.Level.WARNING, "refusing {0}: {1} slaves are connected already",
                                    channel.remoteAddress(), MAX_SLAVES);
                            channel.close();
                            return;
                        }
                        SlaveLink link = new SlaveLink(source, slaves, nanoTime, links);
                        channel.pipeline().addLast(new FixedLengthFrameDecoder(SlaveLink.REPORT_SIZE), link);
                    }
                });
        try {
            listener = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding the HA port " + port, e);
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new IllegalStateException("cannot listen for slaves on " + host + ":" + port + ": " + e, e);
        }
        group.scheduleWithFixedDelay(this::housekeeping, IDLE_CHECK_MILLIS, IDLE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        LOG.log(System.Logger.Level.INFO, "serving slaves on {0}", listener.localAddress());
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** More was appended: idle links send it now rather than at their next look. */
    public void appended() {
        for (SlaveLink link : links) {
            link.wake();
        }
    }

    private void housekeeping() {
        for (SlaveLink link : links) {
            link.housekeeping();
        }
    }

    /** Slaves connected now. */
    public int slaves() {
        return links.size();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close().awaitUninterruptibly();
        }
        links.forEach(SlaveLink::close);
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }
}
