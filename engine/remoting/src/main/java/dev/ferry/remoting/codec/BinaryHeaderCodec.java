package dev.ferry.remoting.codec;

import dev.ferry.remoting.CommandFormatException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.LanguageCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * RocketMQ's compact binary header: {@code int16 code, int8 language, int16 version, int32
 * opaque, int32 flag, int32 remark length + UTF-8, int32 ext length + repeated (int16 key
 * length + key, int32 value length + value)}.
 *
 * <p>Every length is checked against what is left of the header before it is used, so a
 * hostile header cannot make the decoder read past it or allocate more than it holds.
 */
final class BinaryHeaderCodec {
    private final FieldNames fieldNames = new FieldNames();
    /** Per header record type: each field's name as written, 2-byte length then UTF-8, built once. */
    private final ClassValue<byte[][]> namePrefixes = new ClassValue<>() {
        @Override
        protected byte[][] computeValue(Class<?> type) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            HeaderCodec<?> codec = HeaderCodec.of((Class) type);
            byte[][] prefixes = new byte[codec.size()][];
            for (int i = 0; i < prefixes.length; i++) {
                byte[] name = codec.wireNameUtf8(i);
                byte[] prefix = new byte[2 + name.length];
                prefix[0] = (byte) (name.length >>> 8);
                prefix[1] = (byte) name.length;
                System.arraycopy(name, 0, prefix, 2, name.length);
                prefixes[i] = prefix;
            }
            return prefixes;
        }
    };

    void encode(RemotingCommand command, ByteBuf out) {
        out.writeShort(command.code());
        out.writeByte(command.language().code());
        out.writeShort(command.version());
        out.writeInt(command.opaque());
        out.writeInt(command.flag());
        String remark = command.remark();
        if (remark == null || remark.isEmpty()) {
            out.writeInt(0);
        } else {
            writeIntPrefixed(out, remark);
        }
        int extStart = out.writerIndex();
        out.writeInt(0);
        for (Map.Entry<String, String> e : command.explicitExtFields().entrySet()) {
            int keyStart = out.writerIndex();
            out.writeShort(0);
            int keyLength = ByteBufUtil.writeUtf8(out, e.getKey());
            if (keyLength > 0xFFFF) {
                out.writerIndex(extStart);
                throw new CommandFormatException("extension field name of " + keyLength + " bytes is too long");
            }
            out.setShort(keyStart, keyLength);
            writeIntPrefixed(out, e.getValue());
        }
        CommandHeader typed = command.typedHeader();
        if (typed != null) {
            writeTyped(typed, out);
        }
        out.setInt(extStart, out.writerIndex() - extStart - 4);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void writeTyped(CommandHeader header, ByteBuf out) {
        HeaderCodec codec = HeaderCodec.of((Class) header.getClass());
        byte[][] prefixes = namePrefixes.get(header.getClass());
        codec.write((Record) header, new HeaderFieldSink() {
            private void key(int index) {
                out.writeBytes(prefixes[index]);
            }

            @Override
            public void string(int index, String value) {
                key(index);
                writeIntPrefixed(out, value);
            }

            @Override
            public void number(int index, long value) {
                key(index);
                int lengthIndex = out.writerIndex();
                out.writeInt(0);
                out.setInt(lengthIndex, Decimal.write(out, value));
            }

            @Override
            public void bool(int index, boolean value) {
                key(index);
                writeIntPrefixed(out, value ? "true" : "false");
            }
        });
    }

    private static void writeIntPrefixed(ByteBuf out, String value) {
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        out.setInt(lengthIndex, ByteBufUtil.writeUtf8(out, value));
    }

    RemotingCommand.Builder decode(byte[] header) {
        Reader in = new Reader(header, fieldNames);
        RemotingCommand.Builder b = RemotingCommand.Builder.blank();
        b.code(in.int16());
        b.language(LanguageCode.ofCode(in.int8()));
        b.version(in.int16());
        b.opaque(in.int32());
        b.flag(in.int32());
        int remarkLength = in.length("remark", in.int32());
        if (remarkLength > 0) {
            b.remark(in.string(remarkLength));
        }
        int extLength = in.length("extension fields", in.int32());
        if (extLength > 0) {
            int end = in.position + extLength;
            Map<String, String> fields = new HashMap<>(32);
            while (in.position < end) {
                String key = in.fieldName(in.length("field name", in.uint16()));
                String value = in.string(in.length("value of " + key, in.int32()));
                fields.put(key, value);
            }
            if (in.position != end) {
                throw new CommandFormatException("extension fields overrun their declared " + extLength + " bytes");
            }
            b.extFields(fields);
        }
        return b;
    }

    /** Big-endian reads over the header array, each checked against its end. */
    private static final class Reader {
        private final byte[] data;
        private final FieldNames fieldNames;
        private int position;

        Reader(byte[] data, FieldNames fieldNames) {
            this.data = data;
            this.fieldNames = fieldNames;
        }

        String fieldName(int length) {
            String s = fieldNames.get(data, position, length);
            position += length;
            return s;
        }

        private void need(int n) {
            if (n > data.length - position) {
                throw new CommandFormatException("binary header of " + data.length + " bytes ends at byte "
                        + position + " where " + n + " more were expected");
            }
        }

        int length(String what, int length) {
            if (length < 0) {
                throw new CommandFormatException("negative length " + length + " of the " + what);
            }
            need(length);
            return length;
        }

        byte int8() {
            need(1);
            return data[position++];
        }

        int int16() {
            need(2);
            int v = (short) (((data[position] & 0xFF) << 8) | (data[position + 1] & 0xFF));
            position += 2;
            return v;
        }

        int uint16() {
            return int16() & 0xFFFF;
        }

        int int32() {
            need(4);
            int v = ((data[position] & 0xFF) << 24) | ((data[position + 1] & 0xFF) << 16)
                    | ((data[position + 2] & 0xFF) << 8) | (data[position + 3] & 0xFF);
            position += 4;
            return v;
        }

        String string(int length) {
            String s = new String(data, position, length, StandardCharsets.UTF_8);
            position += length;
            return s;
        }
    }
}
