package dev.ferry.remoting.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.ferry.remoting.CommandFormatException;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderCodec;
import dev.ferry.remoting.protocol.HeaderFieldSink;
import dev.ferry.remoting.protocol.LanguageCode;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON header: one object with {@code code, extFields, flag, language, opaque, remark,
 * serializeTypeCurrentRPC, version}, keys in the order Apache's serializer writes them.
 *
 * <p>Encoding writes bytes straight into the frame buffer (the header is flat and its shape
 * fixed, so a general serializer buys nothing). Decoding uses Jackson's streaming parser,
 * leniently: unknown keys are skipped, non-string extension values are taken as text, and
 * unquoted names are accepted, as other RocketMQ clients' serializers may produce them.
 */
final class JsonHeaderCodec {
    private final FieldNames fieldNames = new FieldNames();
    /** Per header record type: each field's {@code "name":} as written, built once (names are plain ASCII). */
    private final ClassValue<byte[][]> namePrefixes = new ClassValue<>() {
        @Override
        protected byte[][] computeValue(Class<?> type) {
            @SuppressWarnings({"unchecked", "rawtypes"})
            HeaderCodec<?> codec = HeaderCodec.of((Class) type);
            byte[][] prefixes = new byte[codec.size()][];
            for (int i = 0; i < prefixes.length; i++) {
                prefixes[i] = ("\"" + codec.wireName(i) + "\":").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            }
            return prefixes;
        }
    };

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final JsonFactory factory = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES)
            .enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .build();

    void encode(RemotingCommand command, ByteBuf out) {
        ascii(out, "{\"code\":");
        decimal(out, command.code());
        ascii(out, ",\"extFields\":{");
        boolean first = true;
        for (Map.Entry<String, String> e : command.explicitExtFields().entrySet()) {
            if (!first) {
                out.writeByte(',');
            }
            first = false;
            string(out, e.getKey());
            out.writeByte(':');
            string(out, e.getValue());
        }
        CommandHeader typed = command.typedHeader();
        if (typed != null) {
            writeTyped(typed, out, first);
        }
        ascii(out, "},\"flag\":");
        decimal(out, command.flag());
        ascii(out, ",\"language\":\"");
        ascii(out, command.language().name());
        ascii(out, "\",\"opaque\":");
        decimal(out, command.opaque());
        if (command.remark() != null) {
            ascii(out, ",\"remark\":");
            string(out, command.remark());
        }
        ascii(out, ",\"serializeTypeCurrentRPC\":\"JSON\",\"version\":");
        decimal(out, command.version());
        out.writeByte('}');
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void writeTyped(CommandHeader header, ByteBuf out, boolean firstField) {
        HeaderCodec codec = HeaderCodec.of((Class) header.getClass());
        byte[][] prefixes = namePrefixes.get(header.getClass());
        codec.write((Record) header, new HeaderFieldSink() {
            private boolean first = firstField;

            private void key(int index) {
                if (!first) {
                    out.writeByte(',');
                }
                first = false;
                out.writeBytes(prefixes[index]);
            }

            @Override
            public void string(int index, String value) {
                key(index);
                JsonHeaderCodec.string(out, value);
            }

            @Override
            public void number(int index, long value) {
                key(index);
                out.writeByte('"');
                Decimal.write(out, value);
                out.writeByte('"');
            }

            @Override
            public void bool(int index, boolean value) {
                key(index);
                ascii(out, value ? "\"true\"" : "\"false\"");
            }
        });
    }

    private static void ascii(ByteBuf out, String s) {
        out.writeCharSequence(s, java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static void decimal(ByteBuf out, int value) {
        if (value >= 0 && value < 10) {
            out.writeByte('0' + value);
        } else {
            ascii(out, Integer.toString(value));
        }
    }

    /** A JSON string literal, UTF-8, with quotes, backslashes and control characters escaped. */
    private static void string(ByteBuf out, String s) {
        int length = s.length();
        int encoded = 0;
        boolean plain = true;
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                encoded++;
            } else {
                plain = false;
                if (c < 0x80) {
                    encoded += c == '"' || c == '\\' ? 2 : 6;
                } else if (c < 0x800) {
                    encoded += 2;
                } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                    encoded += 4;
                    i++;
                } else {
                    encoded += Character.isSurrogate(c) ? 1 : 3;
                }
            }
        }
        out.writeByte('"');
        if (plain) {
            out.writeCharSequence(s, java.nio.charset.StandardCharsets.US_ASCII);
        } else {
            out.writeBytes(escaped(s, encoded));
        }
        out.writeByte('"');
    }

    /** The escaped UTF-8 bytes of {@code s}, which {@link #string} measured to be {@code size} long. */
    private static byte[] escaped(String s, int size) {
        byte[] bytes = new byte[size];
        int w = 0;
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    bytes[w++] = (byte) c;
                } else if (c == '"' || c == '\\') {
                    bytes[w++] = '\\';
                    bytes[w++] = (byte) c;
                } else {
                    bytes[w++] = '\\';
                    bytes[w++] = 'u';
                    bytes[w++] = '0';
                    bytes[w++] = '0';
                    bytes[w++] = HEX[c >> 4];
                    bytes[w++] = HEX[c & 0xF];
                }
            } else if (c < 0x800) {
                bytes[w++] = (byte) (0xC0 | (c >> 6));
                bytes[w++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                bytes[w++] = (byte) (0xF0 | (cp >> 18));
                bytes[w++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                bytes[w++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                bytes[w++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                bytes[w++] = '?'; // a lone surrogate has no UTF-8 form
            } else {
                bytes[w++] = (byte) (0xE0 | (c >> 12));
                bytes[w++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                bytes[w++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        return bytes;
    }

    RemotingCommand.Builder decode(byte[] header) {
        RemotingCommand.Builder fast = new JsonHeaderReader(header, fieldNames).read();
        if (fast != null) {
            return fast;
        }
        RemotingCommand.Builder b = RemotingCommand.Builder.blank();
        try (JsonParser p = factory.createParser(header)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new CommandFormatException("JSON header is not an object");
            }
            String name;
            while ((name = p.nextFieldName()) != null) {
                JsonToken value = p.nextToken();
                switch (name) {
                    case "code" -> b.code(intValue(p, name));
                    case "flag" -> b.flag(intValue(p, name));
                    case "opaque" -> b.opaque(intValue(p, name));
                    case "version" -> b.version(intValue(p, name));
                    case "language" -> b.language(value == JsonToken.VALUE_NULL ? LanguageCode.JAVA
                            : value == JsonToken.VALUE_NUMBER_INT ? LanguageCode.ofCode((byte) p.getIntValue())
                            : LanguageCode.ofName(p.getText()));
                    case "remark" -> b.remark(value == JsonToken.VALUE_NULL ? null : p.getText());
                    case "extFields" -> b.extFields(extFields(p, value));
                    default -> p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw new CommandFormatException("JSON header has trailing content");
            }
        } catch (JsonProcessingException e) {
            throw new CommandFormatException("malformed JSON header: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new CommandFormatException("unreadable JSON header: " + e.getMessage(), e);
        }
        return b;
    }

    private static int intValue(JsonParser p, String name) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            return p.getIntValue();
        }
        if (t == JsonToken.VALUE_STRING) {
            try {
                return Integer.parseInt(p.getText().trim());
            } catch (NumberFormatException e) {
                throw new CommandFormatException("JSON header field '" + name + "' is not an int: " + p.getText());
            }
        }
        throw new CommandFormatException("JSON header field '" + name + "' is not an int but " + t);
    }

    private static Map<String, String> extFields(JsonParser p, JsonToken start) throws IOException {
        if (start == JsonToken.VALUE_NULL) {
            return null;
        }
        if (start != JsonToken.START_OBJECT) {
            throw new CommandFormatException("JSON header field 'extFields' is not an object but " + start);
        }
        Map<String, String> fields = new HashMap<>(32);
        String key;
        while ((key = p.nextFieldName()) != null) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_NULL) {
                continue;
            }
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                throw new CommandFormatException("extension field '" + key + "' is not a scalar");
            }
            fields.put(key, p.getText());
        }
        return fields;
    }
}
