package dev.ferry.server.metrics;

import dev.ferry.format.ThreadRoles;
import dev.ferry.remoting.ListenException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The Prometheus endpoint: {@code /metrics} on the configured address, exposed by Prometheus' own scrape handler (its
 * text formats, content negotiation and gzip), over Netty's HTTP/1.1 codec. One event loop reads and writes every
 * connection, so a connection that sends nothing, or a request a byte at a time, holds no thread; scrapes are
 * collected on {@code metricsScrapeThreads} threads of their own. {@link MetricsConfig} bounds the rest: how long a
 * request may take to arrive, how long a connection may idle, how many connections there are, and how large a
 * request's head may be.
 *
 * <p>Not the JDK's HTTP server (which Prometheus' {@code HTTPServer} wraps): its timeouts are JVM-wide system
 * properties, which the {@code HTTPServer} class even sets for the whole JVM when it loads, and it reads requests on
 * its handler threads, so one connection that never finishes its headers holds a thread.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MetricsEndpoint.class.getName());
    private final EventLoopGroup loop;
    private final Scrapes scrapes;
    private final Channel server;

    private MetricsEndpoint(EventLoopGroup loop, Scrapes scrapes, Channel server) {
        this.loop = loop;
        this.scrapes = scrapes;
        this.server = server;
    }

    /** @throws ListenException naming the address when it cannot be bound */
    public static MetricsEndpoint start(MetricsConfig config, PrometheusRegistry registry, ThreadFactory threads) {
        // one thread accepts and serves every connection: all connection state stays on it (MetricsConnections)
        EventLoopGroup loop = new NioEventLoopGroup(1, ThreadRoles.named("ferry-metrics-io", threads));
        Scrapes scrapes = new Scrapes(config, registry, threads);
        MetricsConnections connections = new MetricsConnections(config.maxConnections());
        HttpDecoderConfig decoding = new HttpDecoderConfig().setMaxInitialLineLength(config.maxHeaderBytes())
                .setMaxHeaderSize(config.maxHeaderBytes()).setInitialBufferSize(Math.min(config.maxHeaderBytes(), 512));
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(loop)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 128)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false) // MetricsExchange asks for each read
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        MetricsExchange exchange = new MetricsExchange(config, scrapes);
                        if (!connections.admit(channel, exchange)) {
                            channel.close();
                            return;
                        }
                        channel.pipeline()
                                .addLast("first-bytes", exchange.firstBytes())
                                .addLast("http", new HttpServerCodec(decoding))
                                .addLast("exchange", exchange);
                    }
                });
        ChannelFuture bound = bootstrap.bind(config.host(), config.port()).awaitUninterruptibly();
        if (!bound.isSuccess()) {
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            scrapes.close();
            throw new ListenException(config.host(), config.port(), bound.cause());
        }
        Channel server = bound.channel();
        LOG.log(System.Logger.Level.INFO, "metrics at http://{0}:{1}/metrics", config.host(),
                String.valueOf(((InetSocketAddress) server.localAddress()).getPort()));
        return new MetricsEndpoint(loop, scrapes, server);
    }

    public int port() {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Override
    public void close() {
        server.close().syncUninterruptibly();
        loop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        scrapes.close();
    }
}
