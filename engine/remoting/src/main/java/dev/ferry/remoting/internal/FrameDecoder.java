package dev.ferry.remoting.internal;

import dev.ferry.remoting.codec.CommandCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the byte stream into frames by their 4-byte length prefix and decodes each into a
 * command. A frame over the maximum or with a negative length fails at once (before its bytes
 * arrive); after any failure the connection's remaining input is discarded while it closes.
 * One instance per connection.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {
    private final CommandCodec codec;
    private boolean failed;

    public FrameDecoder(int maxFrameLength, CommandCodec codec) {
        // The maximum counts the prefix too, as RocketMQ's does.
        super(maxFrameLength, 0, 4, 0, 4, true);
        this.codec = codec;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return null;
        }
        ByteBuf frame = null;
        try {
            frame = (ByteBuf) super.decode(ctx, in);
            return frame == null ? null : codec.decodeFrame(frame);
        } catch (Exception e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            throw e;
        } finally {
            if (frame != null) {
                frame.release();
            }
        }
    }
}
