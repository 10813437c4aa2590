package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.SerializeType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Writes commands as frames. A client forces its configured header serialization on the
 * requests it sends; a server answers in the serialization each request came in. A body given
 * as buffers (stored messages) goes out as a composite of the header and those buffers, never
 * copied into an intermediate array. Stateless and shared by all connections of an endpoint.
 */
@ChannelHandler.Sharable
public final class CommandEncoder extends ChannelOutboundHandlerAdapter {
    private final CommandCodec codec;
    private final SerializeType requestType;

    /** @param requestType serialization for outgoing requests; {@code null} keeps each command's own */
    public CommandEncoder(CommandCodec codec, SerializeType requestType) {
        this.codec = codec;
        this.requestType = requestType;
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof RemotingCommand)) {
            ctx.write(msg, promise);
            return;
        }
        RemotingCommand command = (RemotingCommand) msg;
        if (requestType != null && !command.isResponse() && command.serializeType() != requestType) {
            command = command.toBuilder().serializeType(requestType).build();
        }
        int fields = command.explicitExtFields().size() + (command.typedHeader() != null ? 16 : 0);
        List<ByteBuffer> parts = command.bodyParts();
        int headerEstimate = 256 + fields * 48;
        ByteBuf out = ctx.alloc().ioBuffer(parts == null ? headerEstimate + command.bodyLength() : headerEstimate);
        try {
            if (parts == null) {
                codec.encode(command, out);
            } else {
                codec.encodeHeader(command, out);
            }
        } catch (RuntimeException e) {
            out.release();
            promise.setFailure(e);
            return;
        }
        if (parts == null) {
            ctx.write(out, promise);
            return;
        }
        CompositeByteBuf frame = ctx.alloc().compositeDirectBuffer(parts.size() + 1);
        frame.addComponent(true, out);
        for (ByteBuffer part : parts) {
            frame.addComponent(true, Unpooled.wrappedBuffer(part.duplicate()));
        }
        ctx.write(frame, promise);
    }
}
