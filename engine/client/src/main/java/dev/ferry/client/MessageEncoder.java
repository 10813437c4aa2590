package dev.ferry.client;

import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;

/** Turns {@link Message}s into what SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE carry. Pure functions. */
final class MessageEncoder {
    /** sysFlag bit of a compressed body. */
    static final int COMPRESSED = 0x1;
    /** sysFlag bits 8-10: the compression type; 3 is zlib. */
    static final int ZLIB_TYPE = 3 << 8;
    private static final int ZLIB_LEVEL = 5;

    private MessageEncoder() {
    }

    /**
     * A single message's header properties and body.
     *
     * @param body the body, compressed when {@code sysFlag} says so
     * @param sysFlag the send header's sysFlag
     * @param properties the encoded properties
     */
    record Encoded(byte[] body, int sysFlag, String properties) {
    }

    /** The properties a message travels with: user properties, then KEYS, UNIQ_KEY, WAIT, TAGS, DELAY. */
    static Map<String, String> properties(Message message, String uniqKey) {
        Map<String, String> properties = new LinkedHashMap<>(message.properties());
        if (!message.keys().isEmpty()) {
            properties.put(MessageProperties.KEYS, String.join(" ", message.keys()));
        }
        properties.put(MessageProperties.UNIQ_KEY, uniqKey);
        properties.put(MessageProperties.WAIT, "true");
        message.tags().ifPresent(tags -> properties.put(MessageProperties.TAGS, tags));
        if (message.delayLevel() > 0) {
            properties.put(MessageProperties.DELAY, Integer.toString(message.delayLevel()));
        }
        return properties;
    }

    /** One message, its body zlib-compressed when larger than {@code compressThreshold} bytes. */
    static Encoded single(Message message, Map<String, String> properties, int compressThreshold) {
        byte[] body = message.body();
        int sysFlag = 0;
        if (body.length > compressThreshold) {
            byte[] compressed = deflate(body);
            if (compressed.length < body.length) {
                body = compressed;
                sysFlag = COMPRESSED | ZLIB_TYPE;
            }
        }
        return new Encoded(body, sysFlag, MessageProperties.encode(properties));
    }

    /**
     * The body of SEND_BATCH_MESSAGE: per message {@code int totalSize, int magic 0, int bodyCRC 0, int flag 0,
     * int bodyLength, body, short propertiesLength, properties}. Batches are never compressed.
     */
    static byte[] batchBody(List<Message> messages, List<Map<String, String>> properties) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < messages.size(); i++) {
            byte[] body = messages.get(i).body();
            byte[] props = MessageProperties.encode(properties.get(i)).getBytes(StandardCharsets.UTF_8);
            if (props.length > Short.MAX_VALUE) {
                throw new InvalidMessageException("the properties of batch message " + i + " take "
                        + props.length + " bytes, more than " + Short.MAX_VALUE);
            }
            int totalSize = 4 + 4 + 4 + 4 + 4 + body.length + 2 + props.length;
            ByteBuffer item = ByteBuffer.allocate(totalSize);
            item.putInt(totalSize).putInt(0).putInt(0).putInt(0).putInt(body.length).put(body)
                    .putShort((short) props.length).put(props);
            out.writeBytes(item.array());
        }
        return out.toByteArray();
    }

    static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater(ZLIB_LEVEL);
        try {
            deflater.setInput(data);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 2));
            byte[] chunk = new byte[8192];
            while (!deflater.finished()) {
                int n = deflater.deflate(chunk);
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
