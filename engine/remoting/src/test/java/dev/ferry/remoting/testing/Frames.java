package dev.ferry.remoting.testing;

import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.codec.CommandCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** The bytes a command travels as, for tests that write frames to a raw socket. */
public final class Frames {
    private Frames() {
    }

    /** {@code command} encoded as a whole frame, its length prefix first. */
    public static byte[] of(RemotingCommand command) {
        ByteBuf out = Unpooled.buffer(command.bodyLength() + 1024);
        try {
            new CommandCodec().encode(command, out);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }
}
