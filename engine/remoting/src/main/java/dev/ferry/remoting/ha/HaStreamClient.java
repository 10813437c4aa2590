package dev.ferry.remoting.ha;

import dev.ferry.format.Clock;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A slave's side of the HA stream: keeps one connection to its master's HA port, proves who it is there (the
 * {@link MasterHandshake}; a master silent for {@link #GREETING_WAIT} is taken for Apache's, which has none), reports
 * where its commit log ends, and hands what the master streams to its {@link HaFrameSink} on a thread of its own, so
 * that a sync-flush force never stalls the connection; it reports again whenever the end moved. When the master goes
 * away it tries again every second, and every {@value #MAX_RETRY_SECONDS} s at most after refusals (each logged as an
 * error with the master's reason); a master silent for {@link HaStreamServer#SILENCE} is dropped and reconnected.
 */
public final class HaStreamClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HaStreamClient.class.getName());
    static final int MAX_RETRY_SECONDS = 30;
    /** Bytes waiting to be appended before the connection stops reading. */
    private static final long MAX_PENDING_BYTES = 16L << 20;
    private static final int MAX_FRAME = SlaveLink.HEADER_SIZE + 8 * 1024 * 1024;
    private static final Duration REPORT_INTERVAL = HaStreamServer.HEARTBEAT;
    /** How long a master may stay silent before it is taken for Apache's; a Ferry master greets at once. */
    static final Duration GREETING_WAIT = Duration.ofSeconds(3);

    private final HaFrameSink sink;
    private final HaIdentity identity;
    private final Clock clock;
    private final EventLoopGroup group;
    private final ExecutorService appender;
    private volatile String master;
    private volatile Channel channel;
    /** The current connection's handshake, and when it connected. Event loop only. */
    private MasterHandshake handshake;
    private long connectedAt;
    private volatile boolean closed;
    private volatile long reported = -1;
    private volatile long lastRead;
    private volatile long lastReport;
    private volatile long nextAttempt;
    private volatile int failures;

    /**
     * @param identity this slave: its broker name and id, and with authentication on the credentials it signs its
     *                 hello with (the master's own)
     */
    public HaStreamClient(HaFrameSink sink, HaIdentity identity, ThreadFactory threads, Clock clock) {
        this.sink = sink;
        this.identity = identity;
        this.clock = clock;
        this.group = new NioEventLoopGroup(1, threads);
        this.appender = Executors.newSingleThreadExecutor(threads);
        group.scheduleWithFixedDelay(this::tick, 0, 1, TimeUnit.SECONDS);
    }

    /** The master's HA address ({@code host:port}); a change ends the current connection. */
    public void master(String haAddress) {
        if (haAddress == null || haAddress.isEmpty() || haAddress.equals(master)) {
            return;
        }
        if (!isAddress(haAddress)) {
            LOG.log(System.Logger.Level.WARNING, "ignoring master HA address {0}: not host:port", haAddress);
            return;
        }
        LOG.log(System.Logger.Level.INFO, "replicating from {0}", haAddress);
        master = haAddress;
        failures = 0;
        nextAttempt = clock.nanos();
        Channel current = channel;
        if (current != null) {
            current.close();
        }
        group.execute(this::tick);
    }

    /** Whether it is connected to a master now. */
    public boolean connected() {
        Channel current = channel;
        return current != null && current.isActive();
    }

    /** The last offset reported to the master, or -1. */
    public long reported() {
        return reported;
    }

    /** Whether {@code address} is {@code host:port} with a port in 1..65535: what a master's HA address must be. */
    public static boolean isAddress(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0) {
            return false;
        }
        try {
            int port = Integer.parseInt(address.substring(colon + 1));
            return port > 0 && port <= 65535;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Once a second on the event loop; an exception here would end the schedule, so none escapes. */
    private void tick() {
        try {
            housekeeping();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "replication housekeeping failed: {0}", e.toString());
        }
    }

    private void housekeeping() {
        if (closed) {
            return;
        }
        long now = clock.nanos();
        Channel current = channel;
        if (current != null && current.isActive()) {
            MasterHandshake greeting = handshake;
            if (greeting != null && !greeting.done()) {
                if (now - connectedAt > GREETING_WAIT.toNanos()) {
                    greeting.greetingOverdue();
                }
                return;
            }
            if (now - lastRead > HaStreamServer.SILENCE.toNanos()) {
                LOG.log(System.Logger.Level.WARNING, "master {0} sent nothing for {1}; reconnecting", master,
                        HaStreamServer.SILENCE);
                current.close();
            } else if (now - lastReport > REPORT_INTERVAL.toNanos()) {
                report(current, sink.endOffset());
            }
            return;
        }
        if (current != null && current.isOpen()) {
            return; // still connecting
        }
        String target = master;
        if (target == null || now - nextAttempt < 0) {
            return;
        }
        connect(target);
    }

    private void connect(String target) {
        int colon = target.lastIndexOf(':');
        AtomicLong pending = new AtomicLong();
        Bootstrap bootstrap = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3000)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        MasterHandshake greeting = new MasterHandshake(identity, new Outcome(target, pending));
                        handshake = greeting;
                        ch.pipeline().addLast("handshake", greeting);
                    }
                });
        lastRead = clock.nanos();
        ChannelFuture connecting = bootstrap.connect(target.substring(0, colon),
                Integer.parseInt(target.substring(colon + 1)));
        channel = connecting.channel();
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                retryLater("cannot reach master " + target + ": " + done.cause());
                return;
            }
            connectedAt = clock.nanos();
            lastRead = connectedAt;
            connecting.channel().closeFuture().addListener(closed -> {
                if (!this.closed) {
                    // not before a refusal's pause is over
                    long soonest = clock.nanos() + TimeUnit.SECONDS.toNanos(1);
                    if (soonest - nextAttempt > 0) {
                        nextAttempt = soonest;
                    }
                    LOG.log(System.Logger.Level.INFO, "connection to master {0} closed", target);
                }
            });
        });
    }

    /** The handshake's end: the stream starts, or the master's refusal is logged and the next try waits longer. */
    private final class Outcome implements MasterHandshake.Outcome {
        private final String target;
        private final AtomicLong pending;

        Outcome(String target, AtomicLong pending) {
            this.target = target;
            this.pending = pending;
        }

        @Override
        public void accepted(ChannelHandlerContext ctx, boolean classic) {
            if (classic) {
                LOG.log(System.Logger.Level.INFO, "master {0} sent no greeting within {1}: replicating from it as "
                        + "from an Apache master, without a handshake", target, GREETING_WAIT);
            }
            ctx.pipeline().addAfter(ctx.name(), "frames", new LengthFieldBasedFrameDecoder(MAX_FRAME, 8, 4, 0, 0))
                    .addAfter("frames", "link", new MasterLink(pending));
        }

        @Override
        public void refused(String why) {
            failures++;
            long delay = Math.min(MAX_RETRY_SECONDS, failures);
            nextAttempt = clock.nanos() + TimeUnit.SECONDS.toNanos(delay);
            LOG.log(System.Logger.Level.ERROR, "master {0} refused this slave (brokerName {1}, brokerId {2}): {3}; "
                    + "trying again in {4} s", target, identity.brokerName(), identity.brokerId(), why, delay);
        }
    }

    private void retryLater(String why) {
        failures++;
        long delay = Math.min(MAX_RETRY_SECONDS, failures);
        nextAttempt = clock.nanos() + TimeUnit.SECONDS.toNanos(delay);
        LOG.log(failures == 1 ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "{0}; trying again in "
                + "{1} s", why, delay);
    }

    private void report(Channel to, long offset) {
        lastReport = clock.nanos();
        reported = offset;
        to.writeAndFlush(Unpooled.buffer(SlaveLink.REPORT_SIZE).writeLong(offset));
    }

    /**
     * The connection's handler once the handshake is over: frames in, on the event loop; appends on the appending
     * thread.
     */
    private final class MasterLink extends ChannelInboundHandlerAdapter {
        /** Bytes received and not yet appended. */
        private final AtomicLong pending;

        MasterLink(AtomicLong pending) {
            this.pending = pending;
        }

        /** Added once the master accepted this slave: the stream starts with this slave's report. */
        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            lastRead = clock.nanos();
            Channel from = ctx.channel();
            try {
                appender.execute(() -> {
                    sink.connected();
                    report(from, sink.endOffset());
                });
            } catch (RejectedExecutionException e) {
                from.close(); // closing
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            long offset;
            ByteBuffer data;
            try {
                offset = frame.readLong();
                int size = frame.readInt();
                data = ByteBuffer.allocate(size);
                frame.readBytes(data);
                data.flip();
            } finally {
                frame.release();
            }
            lastRead = clock.nanos();
            failures = 0; // a master that streams, not one that accepts and closes
            Channel from = ctx.channel();
            int size = data.remaining();
            if (pending.addAndGet(size) > MAX_PENDING_BYTES) {
                from.config().setAutoRead(false);
            }
            try {
                appender.execute(() -> append(from, offset, data, size));
            } catch (RejectedExecutionException e) {
                from.close(); // closing
            }
        }

        private void append(Channel from, long offset, ByteBuffer data, int size) {
            try {
                if (!from.isActive()) {
                    return;
                }
                long end = sink.accept(offset, data);
                if (end != reported) {
                    report(from, end);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "cannot take what master {0} sent at {1}: {2}", master, offset,
                        e.getMessage());
                from.close();
                nextAttempt = clock.nanos() + TimeUnit.SECONDS.toNanos(Math.min(MAX_RETRY_SECONDS,
                        ++failures));
            } finally {
                if (pending.addAndGet(-size) <= MAX_PENDING_BYTES / 4 && !from.config().isAutoRead()) {
                    from.eventLoop().execute(() -> from.config().setAutoRead(true));
                }
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(System.Logger.Level.WARNING, "replication from {0} failed: {1}", master, cause.toString());
            ctx.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        Channel current = channel;
        if (current != null) {
            current.close().awaitUninterruptibly();
        }
        appender.shutdown();
        try {
            appender.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly();
    }
}
