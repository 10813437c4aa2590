package dev.ferry.remoting.codec;

import dev.ferry.remoting.CommandFormatException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.SerializeType;
import io.netty.buffer.ByteBuf;

/**
 * Encodes commands into frames and decodes frames into commands.
 *
 * <p>A frame is {@code [int length of the rest][int type<<24 | header length][header][body]};
 * the header is JSON or RocketMQ's binary layout, as the type byte says. Pure functions over
 * buffers: no I/O, no state beyond the immutable header codecs, safe to share across threads.
 */
public final class CommandCodec {
    /** Header lengths travel in the low three bytes of the second word. */
    public static final int MAX_HEADER_LENGTH = 0xFF_FFFF;

    private final JsonHeaderCodec json = new JsonHeaderCodec();
    private final BinaryHeaderCodec binary = new BinaryHeaderCodec();

    /** Writes the whole frame, length prefix included, with the command's own serialization type. */
    public void encode(RemotingCommand command, ByteBuf out) {
        encodeHeader(command, out);
        out.writeBytes(command.body());
    }

    /**
     * Writes the length prefix, header word and header of the frame; the caller writes the
     * {@link RemotingCommand#bodyLength()} body bytes after them (from buffers, say).
     */
    public void encodeHeader(RemotingCommand command, ByteBuf out) {
        int start = out.writerIndex();
        out.writeLong(0); // length and header word, patched below
        SerializeType type = command.serializeType();
        if (type == SerializeType.ROCKETMQ) {
            binary.encode(command, out);
        } else {
            json.encode(command, out);
        }
        int headerLength = out.writerIndex() - start - 8;
        if (headerLength > MAX_HEADER_LENGTH) {
            out.writerIndex(start);
            throw new CommandFormatException("header of " + headerLength + " bytes exceeds the maximum of "
                    + MAX_HEADER_LENGTH);
        }
        out.setInt(start, 4 + headerLength + command.bodyLength());
        out.setInt(start + 4, (type.code() << 24) | headerLength);
    }

    /**
     * Decodes one frame whose length prefix has been stripped: the buffer holds exactly the
     * header word, the header and the body. Reads the whole buffer.
     *
     * @throws CommandFormatException when the frame is inconsistent or the header malformed
     */
    public RemotingCommand decodeFrame(ByteBuf frame) {
        int frameLength = frame.readableBytes();
        if (frameLength < 4) {
            throw new CommandFormatException("frame of " + frameLength + " bytes is shorter than its 4-byte header word");
        }
        int word = frame.readInt();
        int typeCode = (word >>> 24) & 0xFF;
        int headerLength = word & MAX_HEADER_LENGTH;
        SerializeType type = SerializeType.ofCode(typeCode);
        if (type == null) {
            throw new CommandFormatException("unknown header serialization type " + typeCode);
        }
        if (headerLength > frameLength - 4) {
            throw new CommandFormatException("header length " + headerLength + " exceeds the frame's "
                    + (frameLength - 4) + " remaining bytes");
        }
        byte[] header = new byte[headerLength];
        frame.readBytes(header);
        RemotingCommand.Builder builder = type == SerializeType.ROCKETMQ
                ? binary.decode(header) : json.decode(header);
        byte[] body = null;
        if (frame.isReadable()) {
            body = new byte[frame.readableBytes()];
            frame.readBytes(body);
        }
        return builder.body(body).serializeType(type).build();
    }

    /** Decodes one complete frame including its length prefix (for tests and tools). */
    public RemotingCommand decode(ByteBuf frameWithLength) {
        int length = frameWithLength.readInt();
        if (length < 0 || length != frameWithLength.readableBytes()) {
            throw new CommandFormatException("frame length " + length + " does not match the "
                    + frameWithLength.readableBytes() + " bytes that follow it");
        }
        return decodeFrame(frameWithLength);
    }
}
