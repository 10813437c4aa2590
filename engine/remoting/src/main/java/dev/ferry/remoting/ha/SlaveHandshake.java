package dev.ferry.remoting.ha;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import java.util.List;
import java.util.Optional;

/**
 * The first handler of a connection to a master's HA port, on its event loop: sends the {@link HaGreeting}, reads one
 * {@link HaHello} (its announced length bounded before any byte is held), and either answers "accepted" and hands the
 * connection to a {@link SlaveLink}, or answers why not and closes it. Until then the peer is no slave: it holds no
 * slot and the master streams it nothing. How long it may take is the server's business.
 */
final class SlaveHandshake extends ByteToMessageDecoder {
    /** Where a slave that passed gets its link, or why not. */
    interface Slots {
        SlaveSlots.Claim claim(Channel channel, long brokerId);
    }

    /** Told of each refusal, to log it. */
    interface Refusals {
        void refused(Channel channel, HaRefusal refusal, String detail);
    }

    private final SlaveAdmission admission;
    private final byte[] nonce;
    private final Slots slots;
    private final Refusals refusals;
    private boolean done;

    SlaveHandshake(SlaveAdmission admission, byte[] nonce, Slots slots, Refusals refusals) {
        this.admission = admission;
        this.nonce = nonce.clone();
        this.slots = slots;
        this.refusals = refusals;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ByteBuf greeting = ctx.alloc().buffer(HaGreeting.SIZE);
        new HaGreeting(admission.credentialsRequired(), nonce).writeTo(greeting);
        ctx.writeAndFlush(greeting);
        super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (done) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < HaHello.PREFIX) {
            return;
        }
        int start = in.readerIndex();
        int length = in.getUnsignedShort(start + 4);
        if (in.getInt(start) != HaGreeting.MAGIC || length > HaHello.MAX_BODY) {
            refuse(ctx, in, HaRefusal.NOT_A_HELLO, "");
            return;
        }
        if (in.readableBytes() < HaHello.PREFIX + length) {
            return;
        }
        in.skipBytes(HaHello.PREFIX);
        Optional<HaHello> hello = HaHello.read(in.readSlice(length));
        if (hello.isEmpty()) {
            refuse(ctx, in, HaRefusal.NOT_A_HELLO, "");
            return;
        }
        HaHello slave = hello.get();
        Optional<HaRefusal> refusal = admission.check(slave, nonce);
        if (refusal.isPresent()) {
            refuse(ctx, in, refusal.get(), slave.toString());
            return;
        }
        SlaveSlots.Claim claim = slots.claim(ctx.channel(), slave.brokerId());
        if (claim.refusal() != null) {
            refuse(ctx, in, claim.refusal(), slave.toString());
            return;
        }
        done = true;
        ByteBuf accepted = ctx.alloc().buffer(HaGreeting.RESULT_SIZE);
        HaGreeting.writeResult(accepted, HaGreeting.ACCEPTED);
        ctx.writeAndFlush(accepted);
        // reports the slave sent right after its hello reach the link when this decoder leaves
        ctx.pipeline().addAfter(ctx.name(), "reports", new FixedLengthFrameDecoder(SlaveLink.REPORT_SIZE))
                .addAfter("reports", "link", claim.link());
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, ByteBuf in, HaRefusal refusal, String detail) {
        done = true;
        in.skipBytes(in.readableBytes());
        refusals.refused(ctx.channel(), refusal, detail);
        ByteBuf result = ctx.alloc().buffer(HaGreeting.RESULT_SIZE);
        HaGreeting.writeResult(result, refusal.code());
        ctx.writeAndFlush(result).addListener(ChannelFutureListener.CLOSE);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close(); // a peer that is no slave yet: nothing to report beyond the close
    }
}
