package dev.ferry.remoting.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * The first handler of a connection: while closed, it swallows every request to read from the socket, whoever issues
 * it. Turning auto-read off is not enough: a decoder (or TLS) that produced nothing asks for one more read, and a
 * paused connection would go on filling its buffer outside the inbound budget. It is closed for as long as any of its
 * reasons holds (the next frame does not fit the inbound budget; the connection's answers are not being taken by its
 * client), and reads again only when none does. One per connection; used on its event loop only.
 */
public final class ReadGate extends ChannelOutboundHandlerAdapter {
    /** The next frame does not fit the inbound budget. */
    static final int BUDGET = 1;
    /** The connection's answers wait above its high-water mark. */
    static final int UNWRITABLE = 2;

    private int reasons;

    void close(ChannelHandlerContext decoderContext, int reason) {
        reasons |= reason;
        decoderContext.channel().config().setAutoRead(false);
    }

    /** Lifts {@code reason}; reads again at once when no other holds, and returns whether none does. */
    boolean open(ChannelHandlerContext decoderContext, int reason) {
        reasons &= ~reason;
        if (reasons != 0) {
            return false;
        }
        decoderContext.channel().config().setAutoRead(true);
        return true;
    }

    boolean isClosed() {
        return reasons != 0;
    }

    boolean isClosedFor(int reason) {
        return (reasons & reason) != 0;
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (reasons == 0) {
            ctx.read();
        }
    }
}
