package dev.ferry.client;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageCodec;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Stored-message records as a broker's pull response carries them, written with the one format's codec. */
final class Records {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** Every field the codec writes; the record's accessors are the codec's contract. */
    private record Entry(int magicCode, int bodyCrc, int queueId, int flag, int sysFlag, long bornTimestamp,
                         InetSocketAddress bornHost, InetSocketAddress storeHost, int reconsumeTimes,
                         long preparedTransactionOffset, byte[] body, byte[] topicBytes, byte[] propertiesBytes,
                         int encodedLength) implements StoredMessageCodec.Encodable {
    }

    /** Adds a record of {@code topic}'s queue at {@code queueOffset} with body {@code text}. */
    Records add(String topic, int queueId, long queueOffset, String text, Map<String, String> properties) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        byte[] propertyBytes = MessageProperties.format(properties).getBytes(StandardCharsets.UTF_8);
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        int length = StoredMessageCodec.encodedLength(0, body.length, topicBytes.length, propertyBytes.length,
                false);
        Entry entry = new Entry(StoredMessageCodec.MAGIC_V1, StoredMessageCodec.bodyCrc(ByteBuffer.wrap(body)),
                queueId, 0, 0, 1L, HOST, HOST, 0, 0L, body, topicBytes, propertyBytes, length);
        ByteBuffer record = ByteBuffer.allocate(length);
        StoredMessageCodec.encode(record, 0, entry, queueOffset, 1000L * out.size(), 2L);
        out.writeBytes(record.array());
        return this;
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
