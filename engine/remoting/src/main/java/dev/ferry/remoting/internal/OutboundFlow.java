package dev.ferry.remoting.internal;

import dev.ferry.format.Clock;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A server connection's answers going out. While more than the high-water mark of them wait to be written (Netty's
 * writability, answers given as the store's buffers included), the connection is neither read nor are the requests
 * already buffered decoded: a client that does not take its answers cannot ask for more, and TCP pushes back on it.
 * Reading resumes below the low-water mark. A connection that stays above its high-water mark while its client takes
 * not one byte for the stall timeout is closed: its client is dead or hostile, and what it holds (answers, the
 * reservations of the requests they answer) is freed.
 *
 * <p>Only a server's connections have one: a client always reads, so that two peers never wait on each other. One per
 * connection, placed after the frame decoder; used on its event loop only.
 */
final class OutboundFlow extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(OutboundFlow.class.getName());

    private final FrameDecoder decoder;
    private final OutboundBudget budget;
    private final long stallNanos;
    private final Clock clock;
    private ScheduledFuture<?> watch;
    private int lastMessage;
    private long lastProgress;
    private long progressedAt;

    OutboundFlow(FrameDecoder decoder, OutboundBudget budget, long stallMillis, Clock clock) {
        this.decoder = decoder;
        this.clock = clock;
        this.budget = budget;
        this.stallNanos = TimeUnit.MILLISECONDS.toNanos(stallMillis);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isWritable()) {
            decoder.resumeForAnswers();
        } else {
            decoder.pauseForAnswers();
            watch(ctx);
        }
        super.channelWritabilityChanged(ctx);
    }

    private void watch(ChannelHandlerContext ctx) {
        if (watch != null) {
            return;
        }
        lastMessage = 0;
        lastProgress = -1;
        progressedAt = clock.nanos();
        check(ctx);
    }

    /** Notes whether the client took bytes since last time; closes the connection after the stall timeout without. */
    private void check(ChannelHandlerContext ctx) {
        watch = null;
        ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
        if (queued == null || !ctx.channel().isActive() || ctx.channel().isWritable()) {
            return;
        }
        long now = clock.nanos();
        int message = System.identityHashCode(queued.current());
        long progress = queued.currentProgress();
        if (message != lastMessage || progress != lastProgress) {
            lastMessage = message;
            lastProgress = progress;
            progressedAt = now;
        } else if (now - progressedAt >= stallNanos) {
            close(ctx);
            return;
        }
        watch = ctx.executor().schedule(() -> check(ctx), Math.max(1, stallNanos / 4), TimeUnit.NANOSECONDS);
    }

    private void close(ChannelHandlerContext ctx) {
        budget.countStalled();
        System.Logger.Level level = budget.warnNow(clock.nanos()) ? System.Logger.Level.WARNING
                : System.Logger.Level.DEBUG;
        LOG.log(level, "closing connection {0}: its client took none of {1} bytes of answers for {2} ms ({3} closed so "
                + "since start)", ctx.channel().remoteAddress(), queuedBytes(ctx),
                TimeUnit.NANOSECONDS.toMillis(stallNanos), budget.stalled());
        ctx.close();
    }

    private static long queuedBytes(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer queued = ctx.channel().unsafe().outboundBuffer();
        return queued == null ? 0 : queued.totalPendingWriteBytes();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (watch != null) {
            watch.cancel(false);
            watch = null;
        }
        super.channelInactive(ctx);
    }
}
