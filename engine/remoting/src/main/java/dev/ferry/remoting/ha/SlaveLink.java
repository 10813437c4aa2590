package dev.ferry.remoting.ha;

import dev.ferry.format.Clock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connected slave, on its channel's event loop, once it passed the {@link SlaveHandshake}: reads the slave's
 * 8-byte reports (the first says where to start) and writes the commit log from there while the channel is writable,
 * {@value #CHUNK} bytes a frame at most. A report below the commit log's start, or a slave silent too long, ends the
 * link; so does a newer connection of the same brokerId, which takes its place (the slave reconnected, and the old
 * connection may be half-open).
 */
final class SlaveLink extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(SlaveLink.class.getName());
    static final int REPORT_SIZE = 8;
    static final int HEADER_SIZE = 12;
    /** Bytes of one frame at most: well within what Apache's slave reads at once (4 MiB). */
    static final int CHUNK = 256 * 1024;

    private final long brokerId;
    private final HaSource source;
    private final HaSlaveListener slaves;
    private final Clock clock;
    private final Map<Long, SlaveLink> links;
    private final AtomicBoolean idle = new AtomicBoolean();
    private ChannelHandlerContext context;
    /** Next offset to send, -1 until the first report. Event loop only. */
    private long next = -1;
    private long lastWrite;
    private volatile long lastReport;

    SlaveLink(long brokerId, HaSource source, HaSlaveListener slaves, Clock clock,
              Map<Long, SlaveLink> links) {
        this.brokerId = brokerId;
        this.source = source;
        this.slaves = slaves;
        this.clock = clock;
        this.links = links;
    }

    /** Added to an active channel once the handshake passed: the slave holds its slot from now on. */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.context = ctx;
        lastReport = clock.nanos();
        SlaveLink previous = links.put(brokerId, this);
        if (previous != null) {
            LOG.log(System.Logger.Level.WARNING, "slave {0} connected again from {1}: closing its connection from "
                    + "{2}", brokerId, ctx.channel().remoteAddress(), previous.context.channel().remoteAddress());
            previous.close();
        } else {
            LOG.log(System.Logger.Level.INFO, "slave {0} connected from {1}", brokerId,
                    ctx.channel().remoteAddress());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        links.remove(brokerId, this);
        slaves.slaveGone(this);
        LOG.log(System.Logger.Level.INFO, "slave {0} at {1} disconnected", brokerId, ctx.channel().remoteAddress());
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf report = (ByteBuf) msg;
        long offset;
        try {
            offset = report.readLong();
        } finally {
            report.release();
        }
        lastReport = clock.nanos();
        if (next < 0) {
            next = start(offset);
            if (next < 0) {
                ctx.close();
                return;
            }
        }
        slaves.acknowledged(this, Math.min(offset, next)); // only what this link was sent counts
        transfer();
    }

    /**
     * Where a slave that reports {@code offset} is sent from (a new slave gets everything still on disk), or -1 when
     * it cannot be caught up.
     */
    private long start(long offset) {
        long min = source.minOffset();
        long end = source.endOffset();
        if (offset == 0) {
            return min;
        }
        if (offset < min) {
            LOG.log(System.Logger.Level.ERROR, "slave {0} ends at {1}, below this commit log''s start {2}: it "
                    + "cannot be caught up; give it an empty store", context.channel().remoteAddress(), offset, min);
            return -1;
        }
        if (offset > end) {
            // Apache's master would wait there; but the slave holds bytes this master does not (it lost a tail, or
            // the slave followed another master), and what this master writes next would differ from them
            LOG.log(System.Logger.Level.ERROR, "slave {0} ends at {1}, beyond this master''s end {2}: the two "
                    + "commit logs differ; give the slave a copy of the master''s store", context.channel()
                    .remoteAddress(), offset, end);
            return -1;
        }
        return offset;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            transfer();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.WARNING, "replication to {0} failed: {1}", ctx.channel().remoteAddress(),
                cause.toString());
        ctx.close();
    }

    /** Writes what there is to write, on the event loop. */
    private void transfer() {
        if (next < 0 || !context.channel().isActive()) {
            return;
        }
        idle.set(false);
        while (context.channel().isWritable()) {
            Optional<ByteBuffer> chunk;
            try {
                chunk = source.read(next, CHUNK);
            } catch (IllegalArgumentException e) {
                LOG.log(System.Logger.Level.ERROR, "slave {0} needs {1}, which is no longer on disk; closing",
                        context.channel().remoteAddress(), next);
                context.close();
                return;
            }
            if (chunk.isEmpty()) {
                idle.set(true);
                // readable bytes appended between the read and going idle: read again
                if (source.endOffset() > next && idle.compareAndSet(true, false)) {
                    continue;
                }
                break;
            }
            ByteBuffer bytes = chunk.get();
            ByteBuf frame = Unpooled.buffer(HEADER_SIZE + bytes.remaining());
            frame.writeLong(next).writeInt(bytes.remaining()).writeBytes(bytes);
            next += frame.readableBytes() - HEADER_SIZE;
            context.write(frame);
            lastWrite = clock.nanos();
        }
        context.flush();
    }

    /** Whether the slave has reported nothing for {@code silence} at {@code now}. */
    boolean silentFor(java.time.Duration silence, long now) {
        return now - lastReport > silence.toNanos();
    }

    /** Called by appenders: an idle link goes to send. */
    void wake() {
        if (idle.compareAndSet(true, false)) {
            context.channel().eventLoop().execute(this::transfer);
        }
    }

    /** On the event loop, periodically: sends what an idle link missed, heartbeats, and drops a silent slave. */
    void housekeeping() {
        context.channel().eventLoop().execute(() -> {
            long now = clock.nanos();
            if (now - lastReport > HaStreamServer.SILENCE.toNanos()) {
                LOG.log(System.Logger.Level.WARNING, "slave {0} reported nothing for {1}; closing",
                        context.channel().remoteAddress(), HaStreamServer.SILENCE);
                context.close();
                return;
            }
            transfer();
            if (next >= 0 && now - lastWrite > HaStreamServer.HEARTBEAT.toNanos()) {
                context.writeAndFlush(Unpooled.buffer(HEADER_SIZE).writeLong(next).writeInt(0));
                lastWrite = now;
            }
        });
    }

    void close() {
        if (context != null) {
            context.close();
        }
    }
}
