package dev.ferry.remoting.ha;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.Optional;

/**
 * The first handler of a slave's connection to its master, on its event loop: waits for the master's
 * {@link HaGreeting}, answers it with this slave's {@link HaHello} and reads the verdict. A master that says nothing
 * at all until {@link #greetingOverdue()} is taken for Apache's, whose HA port has no handshake: the stream starts at
 * once, as the classic protocol does.
 */
final class MasterHandshake extends ByteToMessageDecoder {
    /** What the handshake ends in. */
    interface Outcome {
        /** The stream may start; {@code classic} when the master sent no greeting (Apache's). */
        void accepted(ChannelHandlerContext ctx, boolean classic);

        /** The master refused this slave, or it spoke something else; the connection is closing. */
        void refused(String why);
    }

    private enum State { GREETING, RESULT, DONE }

    private final HaIdentity identity;
    private final Outcome outcome;
    private State state = State.GREETING;
    private boolean heard;
    private ChannelHandlerContext context;

    MasterHandshake(HaIdentity identity, Outcome outcome) {
        this.identity = identity;
        this.outcome = outcome;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.context = ctx;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        heard |= in.isReadable();
        if (state == State.GREETING && in.readableBytes() >= HaGreeting.SIZE) {
            Optional<HaGreeting> greeting = HaGreeting.read(in);
            if (greeting.isEmpty()) {
                fail(ctx, in, "it sent no Ferry master's greeting of version " + HaGreeting.VERSION
                        + " (nor is it an Apache master, which says nothing first)");
                return;
            }
            // a hello without credentials to a master that wants them is sent all the same: its refusal says so
            ByteBuf hello = ctx.alloc().buffer(HaHello.PREFIX + HaHello.MAX_BODY);
            HaHello.of(identity, greeting.get().nonce()).writeTo(hello);
            ctx.writeAndFlush(hello);
            state = State.RESULT;
        }
        if (state == State.RESULT && in.readableBytes() >= HaGreeting.RESULT_SIZE) {
            int magic = in.readInt();
            int code = in.readUnsignedByte();
            if (magic != HaGreeting.MAGIC) {
                fail(ctx, in, "it answered the hello with something else than a verdict");
            } else if (code == HaGreeting.ACCEPTED) {
                start(ctx, false);
            } else {
                fail(ctx, in, HaRefusal.of(code).map(HaRefusal::reason).orElse("refusal " + code));
            }
        }
    }

    /**
     * The wait for the greeting is over, on the event loop: a master that sent nothing is Apache's and the stream
     * starts; one that began the handshake and stalled is closed.
     */
    void greetingOverdue() {
        if (state == State.DONE || context == null) {
            return;
        }
        if (state == State.GREETING && !heard) {
            start(context, true);
        } else {
            state = State.DONE;
            outcome.refused("it did not complete the handshake in time");
            context.close();
        }
    }

    boolean done() {
        return state == State.DONE;
    }

    private void start(ChannelHandlerContext ctx, boolean classic) {
        state = State.DONE;
        outcome.accepted(ctx, classic);
        ctx.pipeline().remove(this);
    }

    private void fail(ChannelHandlerContext ctx, ByteBuf in, String why) {
        state = State.DONE;
        in.skipBytes(in.readableBytes());
        outcome.refused(why);
        ctx.close();
    }
}
