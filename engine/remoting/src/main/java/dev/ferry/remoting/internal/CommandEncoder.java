package dev.ferry.remoting.internal;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.codec.CommandCodec;
import dev.ferry.remoting.protocol.SerializeType;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;

/**
 * Writes commands as frames. A client forces its configured header serialization on the
 * requests it sends; a server answers in the serialization each request came in. Stateless and
 * shared by all connections of an endpoint.
 */
@ChannelHandler.Sharable
public final class CommandEncoder extends MessageToByteEncoder<RemotingCommand> {
    private final CommandCodec codec;
    private final SerializeType requestType;

    /** @param requestType serialization for outgoing requests; {@code null} keeps each command's own */
    public CommandEncoder(CommandCodec codec, SerializeType requestType) {
        super(RemotingCommand.class);
        this.codec = codec;
        this.requestType = requestType;
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, RemotingCommand msg, boolean preferDirect) {
        int fields = msg.explicitExtFields().size() + (msg.typedHeader() != null ? 16 : 0);
        int estimate = 256 + fields * 48 + msg.body().length;
        return preferDirect ? ctx.alloc().ioBuffer(estimate) : ctx.alloc().heapBuffer(estimate);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, RemotingCommand msg, ByteBuf out) {
        if (requestType != null && !msg.isResponse() && msg.serializeType() != requestType) {
            codec.encode(msg.toBuilder().serializeType(requestType).build(), out);
        } else {
            codec.encode(msg, out);
        }
    }
}
