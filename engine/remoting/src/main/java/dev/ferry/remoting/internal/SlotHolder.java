package dev.ferry.remoting.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A server connection's hold on its {@link ConnectionSlots slot}: records each whole request that arrives (which keeps
 * the connection from being the first to give way), closes the connection when no whole request has arrived within
 * the first-request timeout of its opening (a TLS handshake included). The server gives the slot back when the
 * connection closes. One
 * per connection, placed after the frame decoder; used on its event loop only.
 */
final class SlotHolder extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(SlotHolder.class.getName());

    private final ConnectionSlots slots;
    private final ConnectionSlots.Slot slot;
    private final long firstRequestTimeoutMillis;
    private ScheduledFuture<?> firstRequestDeadline;

    SlotHolder(ConnectionSlots slots, ConnectionSlots.Slot slot, long firstRequestTimeoutMillis) {
        this.slots = slots;
        this.slot = slot;
        this.firstRequestTimeoutMillis = firstRequestTimeoutMillis;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (firstRequestTimeoutMillis > 0) {
            firstRequestDeadline = ctx.executor().schedule(() -> {
                if (!slot.proven() && ctx.channel().isActive()) {
                    LOG.log(System.Logger.Level.DEBUG, "closing connection {0}: no whole request within {1} ms of "
                            + "its opening", ctx.channel().remoteAddress(), firstRequestTimeoutMillis);
                    ctx.close();
                }
            }, firstRequestTimeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof InboundCommand inbound && !inbound.command().isResponse()) {
            slots.requestArrived(slot);
            if (firstRequestDeadline != null) {
                firstRequestDeadline.cancel(false);
                firstRequestDeadline = null;
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (firstRequestDeadline != null) {
            firstRequestDeadline.cancel(false);
        }
        super.channelInactive(ctx);
    }
}
