package dev.ferry.remoting.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * The first handler of a connection: while closed, it swallows every request to read from the socket, whoever issues
 * it. Turning auto-read off is not enough: a decoder (or TLS) that produced nothing asks for one more read, and a
 * paused connection would go on filling its buffer outside the inbound budget. One per connection; used on its event
 * loop only.
 */
public final class ReadGate extends ChannelOutboundHandlerAdapter {
    private boolean closed;

    void close(ChannelHandlerContext decoderContext) {
        closed = true;
        decoderContext.channel().config().setAutoRead(false);
    }

    void open(ChannelHandlerContext decoderContext) {
        closed = false;
        decoderContext.channel().config().setAutoRead(true); // reads again at once
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (!closed) {
            ctx.read();
        }
    }
}
