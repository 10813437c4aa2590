package dev.ferry.remoting.internal;

import dev.ferry.remoting.codec.CommandCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Cuts the byte stream into frames by their 4-byte length prefix and decodes each into a command. A frame over the
 * maximum or with a negative length fails at once (before its bytes arrive); after any failure the connection's
 * remaining input is discarded while it closes.
 *
 * <p>Memory: a frame's bytes are reserved in the {@link InboundBudget} as they arrive, so a connection that announces
 * a large frame and sends little holds only what it sent. When they do not fit, the connection stops being read and
 * looks again every {@value #RETRY_MILLIS} ms; its client sees TCP push back. A frame must arrive whole within the
 * frame timeout of its first bytes (counted again after the server paused its reading), or the connection is closed,
 * so a client trickling bytes cannot hold a reservation for ever.
 *
 * <p>On a server's connection, while its answers wait above the high-water mark ({@link OutboundFlow}), it neither
 * reads nor decodes the frames already buffered, and starts again when they are taken. One instance per connection,
 * used on its event loop only.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private static final System.Logger LOG = System.getLogger(FrameDecoder.class.getName());
    static final int RETRY_MILLIS = 10;

    private final CommandCodec codec;
    private final int maxFrameLength;
    private final InboundBudget.Connection budget;
    private final long frameTimeoutMillis;
    private final ReadGate gate;
    private final OutboundBudget.Connection answers;
    private ChannelHandlerContext context;
    private boolean decodeScheduled;
    private InboundBudget.Reservation reserved;
    private ScheduledFuture<?> frameDeadline;
    private boolean retryScheduled;
    private boolean failed;

    public FrameDecoder(int maxFrameLength, CommandCodec codec) {
        this(maxFrameLength, codec, InboundBudget.UNLIMITED, Duration.ZERO, new ReadGate(),
                OutboundBudget.UNLIMITED);
    }

    /**
     * @param frameTimeout how long a frame may take to arrive once begun; zero for no limit
     * @param gate         the connection's read gate, first in its pipeline, which this decoder closes while the next
     *                     frame does not fit the budget
     * @param answers      what the connection's answers may hold; it goes with each request
     */
    public FrameDecoder(int maxFrameLength, CommandCodec codec, InboundBudget budget, Duration frameTimeout,
                        ReadGate gate, OutboundBudget answers) {
        // The maximum counts the prefix too, as RocketMQ's does.
        super(maxFrameLength, 0, 4, 0, 4, true);
        this.codec = codec;
        this.maxFrameLength = maxFrameLength;
        this.budget = budget.connection();
        this.frameTimeoutMillis = frameTimeout.toMillis();
        this.gate = gate;
        this.answers = answers.connection();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.context = ctx;
        super.handlerAdded(ctx);
    }

    /** The connection's answers wait above its high-water mark: read and decode nothing more. */
    void pauseForAnswers() {
        gate.close(context, ReadGate.UNWRITABLE);
    }

    /**
     * The connection's answers are below the low-water mark again: read, and decode what is buffered (later, never
     * inside a decode under way, which a flush may be).
     */
    void resumeForAnswers() {
        gate.open(context, ReadGate.UNWRITABLE);
        ByteBuf buffered = internalBuffer();
        if (buffered.isReadable() && !decodeScheduled) {
            decodeScheduled = true;
            context.executor().execute(() -> {
                decodeScheduled = false;
                decodeBuffered(context);
            });
        }
    }

    private void decodeBuffered(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive() && !gate.isClosedFor(ReadGate.UNWRITABLE)) {
            try {
                channelRead(ctx, Unpooled.EMPTY_BUFFER); // decodes what is buffered again
            } catch (Exception e) {
                ctx.fireExceptionCaught(e);
            }
        }
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        if (gate.isClosedFor(ReadGate.UNWRITABLE)) {
            return null; // kept until the answers are taken
        }
        if (in.readableBytes() >= 4 && !holdArrived(ctx, in)) {
            return null;
        }
        ByteBuf frame = null;
        try {
            frame = (ByteBuf) super.decode(ctx, in);
            if (frame == null) {
                return null;
            }
            InboundCommand command = new InboundCommand(codec.decodeFrame(frame),
                    reserved == null ? InboundBudget.Reservation.NONE : reserved, answers);
            frameDone();
            return command;
        } catch (Exception e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            releaseReserved();
            throw e;
        } finally {
            if (frame != null) {
                frame.release();
            }
        }
    }

    /**
     * Reserves the bytes of the next frame that have arrived; returns true when the whole frame is here and reserved
     * (or its length is out of bounds, which the superclass refuses). When the arrived bytes do not fit, stops reading
     * and returns false.
     */
    private boolean holdArrived(ChannelHandlerContext ctx, ByteBuf in) {
        int length = in.getInt(in.readerIndex());
        if (length < 0 || length > maxFrameLength - 4) {
            return true; // the length check of the superclass refuses it
        }
        long frameBytes = 4L + length;
        if (reserved == null) {
            reserved = budget.open(frameBytes);
        }
        long arrived = Math.min(in.readableBytes(), frameBytes);
        if (!reserved.growTo(arrived)) {
            pause(ctx);
            return false;
        }
        if (gate.isClosedFor(ReadGate.BUDGET)) {
            gate.open(ctx, ReadGate.BUDGET);
        }
        if (arrived < frameBytes) {
            if (frameTimeoutMillis > 0 && frameDeadline == null) {
                frameDeadline = ctx.executor().schedule(() -> frameTooSlow(ctx), frameTimeoutMillis,
                        TimeUnit.MILLISECONDS);
            }
            return false;
        }
        return true;
    }

    private void pause(ChannelHandlerContext ctx) {
        cancelDeadline(); // the wait is the server's, not the client's: the deadline starts again once read again
        if (!gate.isClosedFor(ReadGate.BUDGET)) {
            gate.close(ctx, ReadGate.BUDGET);
            LOG.log(System.Logger.Level.DEBUG, "{0}: pausing reads, the requests in flight hold the inbound budget",
                    ctx.channel().remoteAddress());
        }
        if (retryScheduled) {
            return;
        }
        retryScheduled = true;
        ctx.executor().schedule(() -> {
            retryScheduled = false;
            if (gate.isClosedFor(ReadGate.BUDGET)) {
                decodeBuffered(ctx);
            }
        }, RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void frameTooSlow(ChannelHandlerContext ctx) {
        if (reserved != null && ctx.channel().isActive()) {
            LOG.log(System.Logger.Level.WARNING, "closing connection {0}: a frame took longer than {1} ms to arrive",
                    ctx.channel().remoteAddress(), frameTimeoutMillis);
            ctx.close();
        }
    }

    /** The frame was decoded (its reservation goes with the command) or failed. */
    private void frameDone() {
        reserved = null;
        cancelDeadline();
    }

    private void cancelDeadline() {
        if (frameDeadline != null) {
            frameDeadline.cancel(false);
            frameDeadline = null;
        }
    }

    private void releaseReserved() {
        if (reserved != null) {
            reserved.release();
        }
        frameDone();
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
        releaseReserved();
        super.handlerRemoved0(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        try {
            super.channelInactive(ctx); // may decode what is left, and reserve for it
        } finally {
            releaseReserved();
        }
    }
}
