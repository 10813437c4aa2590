package dev.ferry.remoting.ha;

import dev.ferry.format.Clock;
import dev.ferry.format.LogPace;
import dev.ferry.remoting.ListenException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A master's HA port. A connection first goes through the {@link SlaveHandshake}: it must answer the greeting with a
 * hello of this master's broker name, a slave's id and, when the master has credentials, their signature, within
 * {@link HaLimits#handshakeTimeout()}; at most {@link HaLimits#maxPendingHandshakes()} connections are at it at once,
 * a new one closing the oldest. Only then does it take one of {@value #MAX_SLAVES} slots, one per brokerId
 * ({@link SlaveSlots}), and get a {@link SlaveLink} streaming the commit log from where the slave says its own ends.
 * {@link #appended()} tells idle links there is more to send; idle links also look every {@value #IDLE_CHECK_MILLIS}
 * ms and send a heartbeat every {@link #HEARTBEAT} of silence.
 *
 * <p>One event loop serves the port: the accepting, every connection, the handshakes' bookkeeping and the
 * housekeeping run on it; {@link #appended()} and {@link #slaves()} may be called from any thread.
 */
public final class HaStreamServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HaStreamServer.class.getName());
    static final long IDLE_CHECK_MILLIS = 100;
    /** Apache's haSendHeartbeatInterval. */
    static final Duration HEARTBEAT = Duration.ofSeconds(5);
    /** A slave that reports nothing for this long is dropped (Apache's haHousekeepingInterval). */
    static final Duration SILENCE = Duration.ofSeconds(20);
    /** Slaves served at once: each may read the whole commit log, so more are refused. */
    static final int MAX_SLAVES = 16;
    /** At most one refusal in this time is logged as a warning; the rest, a flood's, at debug level. */
    private static final Duration WARNING_PAUSE = Duration.ofSeconds(10);

    private final String host;
    private final int port;
    private final HaSource source;
    private final HaSlaveListener slaves;
    private final ThreadFactory threads;
    private final Clock clock;
    private final SlaveAdmission admission;
    private final SlaveSlots slots;
    private final HaLimits limits;
    private final SecureRandom random = new SecureRandom();
    /** The slaves, by brokerId. */
    private final Map<Long, SlaveLink> links = new ConcurrentHashMap<>();
    /** Connections still to complete their handshake, oldest first, with when they connected. Event loop only. */
    private final LinkedHashMap<Channel, Long> pending = new LinkedHashMap<>();
    /** Refusals logged as warnings: one per {@link #WARNING_PAUSE}, the rest at DEBUG. */
    private final LogPace refusalWarnings = new LogPace(WARNING_PAUSE);
    private EventLoopGroup group;
    private Channel listener;

    /**
     * @param master the master's identity: its broker name and, with authentication on, the credentials its slaves
     *               must sign their hello with
     */
    public HaStreamServer(HaIdentity master, HaLimits limits, String host, int port, HaSource source,
                          HaSlaveListener slaves, ThreadFactory threads, Clock clock) {
        this.admission = new SlaveAdmission(master);
        this.limits = limits;
        this.host = host;
        this.port = port;
        this.source = source;
        this.slaves = slaves;
        this.threads = threads;
        this.clock = clock;
        this.slots = new SlaveSlots(links, admission.credentialsRequired(), MAX_SLAVES, source, slaves, clock);
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
                        admit(channel);
                    }
                });
        try {
            listener = bootstrap.bind(new InetSocketAddress(host, port)).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding the HA port " + port, e);
        } catch (Exception e) { // Netty rethrows the bind's IOException undeclared
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new ListenException(host, port, e);
        }
        group.scheduleWithFixedDelay(this::housekeeping, IDLE_CHECK_MILLIS, IDLE_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        LOG.log(System.Logger.Level.INFO, "serving slaves on {0}", listener.localAddress());
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** A new connection, on the event loop: it gets a handshake, and a place among the pending ones. */
    private void admit(Channel channel) {
        if (pending.size() >= limits.maxPendingHandshakes()) {
            Iterator<Map.Entry<Channel, Long>> oldest = pending.entrySet().iterator();
            Channel evicted = oldest.next().getKey();
            oldest.remove();
            warnThrottled("closing {0}: {1} connections are still to say hello, and it is the oldest",
                    evicted.remoteAddress(), limits.maxPendingHandshakes());
            evicted.close();
        }
        pending.put(channel, clock.nanos());
        channel.closeFuture().addListener(closed -> pending.remove(channel));
        byte[] nonce = new byte[HaGreeting.NONCE_SIZE];
        random.nextBytes(nonce);
        channel.pipeline().addLast("handshake", new SlaveHandshake(admission, nonce, this::claim, this::refused));
    }

    /** A slave passed its handshake, on the event loop: it is no longer pending, and gets a slot or a refusal. */
    private SlaveSlots.Claim claim(Channel channel, long brokerId) {
        pending.remove(channel);
        return slots.claim(brokerId);
    }

    private void refused(Channel channel, HaRefusal refusal, String hello) {
        warnThrottled("refused {0} on the HA port{1}: {2}", channel.remoteAddress(), hello.isEmpty() ? "" : ", "
                + hello, refusal.reason());
    }

    private void warnThrottled(String format, Object... values) {
        LOG.log(refusalWarnings.level(clock.nanos()), format, values);
    }

    /** More was appended: idle links send it now rather than at their next look. */
    public void appended() {
        for (SlaveLink link : links.values()) {
            link.wake();
        }
    }

    /** On the event loop: closes the connections that did not say hello in time, then looks after the links. */
    private void housekeeping() {
        long now = clock.nanos();
        long timeout = limits.handshakeTimeout().toNanos();
        List<Channel> overdue = new ArrayList<>();
        for (Map.Entry<Channel, Long> entry : pending.entrySet()) {
            if (now - entry.getValue() < timeout) {
                break; // oldest first: the rest are younger
            }
            overdue.add(entry.getKey());
        }
        for (Channel channel : overdue) {
            pending.remove(channel);
            LOG.log(System.Logger.Level.DEBUG, "closing {0}: no hello within {1}", channel.remoteAddress(),
                    limits.handshakeTimeout());
            channel.close();
        }
        for (SlaveLink link : links.values()) {
            link.housekeeping();
        }
    }

    /** Slaves connected now (connections that completed the handshake). */
    public int slaves() {
        return links.size();
    }

    @Override
    public void close() {
        if (listener != null) {
            listener.close().awaitUninterruptibly();
        }
        links.values().forEach(SlaveLink::close);
        if (group != null) {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
        }
    }
}
