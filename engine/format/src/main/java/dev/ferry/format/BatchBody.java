package dev.ferry.format;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The body of SEND_BATCH_MESSAGE: messages back to back, each {@code int total size, int magic, int body CRC,
 * int flag, int body length + body, short properties length + properties}. The client writes magic and CRC as 0; the
 * store computes the CRC. Each message keeps its own properties, unique id included.
 */
public final class BatchBody {
    /** The fixed part of one message: five ints and the properties length. */
    public static final int ITEM_OVERHEAD = 4 * 5 + 2;

    private BatchBody() {
    }

    /**
     * One message of a batch.
     *
     * @param flag       the application's flag
     * @param body       the body, never empty
     * @param properties the properties in {@link MessageProperties}' format
     */
    public record Item(int flag, byte[] body, String properties) {
        public Item {
            Objects.requireNonNull(body, "body");
            Objects.requireNonNull(properties, "properties");
        }
    }

    /**
     * @throws IllegalArgumentException naming the message when a body is empty or properties exceed 32,767 bytes
     */
    public static byte[] encode(List<Item> items) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < items.size(); i++) {
            Item item = items.get(i);
            byte[] properties = item.properties().getBytes(StandardCharsets.UTF_8);
            if (item.body().length == 0) {
                throw new IllegalArgumentException("batch message " + i + " has an empty body");
            }
            if (properties.length > Short.MAX_VALUE) {
                throw new IllegalArgumentException("the properties of batch message " + i + " take "
                        + properties.length + " bytes, more than " + Short.MAX_VALUE);
            }
            int totalSize = ITEM_OVERHEAD + item.body().length + properties.length;
            ByteBuffer encoded = ByteBuffer.allocate(totalSize);
            encoded.putInt(totalSize).putInt(0).putInt(0).putInt(item.flag()).putInt(item.body().length)
                    .put(item.body()).putShort((short) properties.length).put(properties);
            out.writeBytes(encoded.array());
        }
        return out.toByteArray();
    }

    /**
     * Decodes a batch of at most {@code maxMessages} messages.
     *
     * @throws IllegalArgumentException naming the byte where the body stops being a well-formed batch
     */
    public static List<Item> decode(byte[] body, int maxMessages) {
        if (body == null || body.length == 0) {
            throw new IllegalArgumentException("the batch is empty");
        }
        ByteBuffer in = ByteBuffer.wrap(body);
        List<Item> items = new ArrayList<>();
        try {
            while (in.hasRemaining()) {
                int start = in.position();
                int totalSize = in.getInt();
                if (totalSize < ITEM_OVERHEAD || totalSize > body.length - start) {
                    throw new IllegalArgumentException("batch message at byte " + start + " declares " + totalSize
                            + " bytes, but " + (body.length - start) + " remain");
                }
                in.getInt(); // magic code, unused in batches
                in.getInt(); // body CRC, computed by the store
                int flag = in.getInt();
                int bodyLength = in.getInt();
                if (bodyLength <= 0 || bodyLength > totalSize - ITEM_OVERHEAD) {
                    throw new IllegalArgumentException("batch message at byte " + start + " has a body of "
                            + bodyLength + " bytes");
                }
                byte[] messageBody = new byte[bodyLength];
                in.get(messageBody);
                int propertiesLength = Short.toUnsignedInt(in.getShort());
                if (in.position() + propertiesLength - start != totalSize) {
                    throw new IllegalArgumentException("batch message at byte " + start + " declares " + totalSize
                            + " bytes but holds " + (in.position() + propertiesLength - start));
                }
                byte[] properties = new byte[propertiesLength];
                in.get(properties);
                if (items.size() == maxMessages) {
                    throw new IllegalArgumentException("a batch holds at most " + maxMessages + " messages");
                }
                items.add(new Item(flag, messageBody, new String(properties, StandardCharsets.UTF_8)));
            }
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("the batch body ends in the middle of a message", e);
        }
        return items;
    }
}
