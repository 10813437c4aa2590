package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.SystemTopics;
import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decodes the stored-message records a pull response carries (the commit-log layout, big-endian):
 * total size, magic (V1 or V2), body CRC, queue id, flag, queue offset, physical offset, sysFlag, born
 * timestamp and host (IPv4 or IPv6 by sysFlag), store timestamp and host, reconsume times, prepared
 * transaction offset, body (int length), topic (1-byte length in V1, 2-byte in V2), properties (2-byte
 * length). Pure functions.
 */
final class MessageDecoder {
    static final int MAGIC_V1 = 0xDAA320A7;
    static final int MAGIC_V2 = 0xDAA320AB;
    private static final int BORN_HOST_V6 = 0x10;
    private static final int STORE_HOST_V6 = 0x20;

    private MessageDecoder() {
    }

    /**
     * @param body the pull response body: records back to back
     * @param brokerName the broker the records came from
     * @throws FerryException when a record is malformed
     */
    static List<ReceivedMessage> decodeAll(byte[] body, String brokerName) {
        ByteBuffer buffer = ByteBuffer.wrap(body);
        List<ReceivedMessage> messages = new ArrayList<>();
        while (buffer.remaining() > 0) {
            int start = buffer.position();
            int totalSize = buffer.getInt(start);
            if (totalSize <= 0 || totalSize > buffer.remaining()) {
                throw new FerryException("malformed pull response from " + brokerName + ": record at " + start
                        + " claims " + totalSize + " bytes, " + buffer.remaining() + " remain");
            }
            messages.add(decode(buffer.slice(start, totalSize), brokerName));
            buffer.position(start + totalSize);
        }
        return messages;
    }

    /** One record. */
    static ReceivedMessage decode(ByteBuffer record, String brokerName) {
        try {
            record.getInt(); // total size
            int magic = record.getInt();
            if (magic != MAGIC_V1 && magic != MAGIC_V2) {
                throw new FerryException("unknown message magic 0x" + Integer.toHexString(magic) + " from " + brokerName);
            }
            record.getInt(); // body CRC
            int queueId = record.getInt();
            record.getInt(); // flag
            long queueOffset = record.getLong();
            long commitLogOffset = record.getLong();
            int sysFlag = record.getInt();
            long bornTimestamp = record.getLong();
            skipHost(record, (sysFlag & BORN_HOST_V6) != 0);
            long storeTimestamp = record.getLong();
            byte[] storeHost = host(record, (sysFlag & STORE_HOST_V6) != 0);
            int reconsumeTimes = record.getInt();
            record.getLong(); // prepared transaction offset
            byte[] body = new byte[record.getInt()];
            record.get(body);
            int topicLength = magic == MAGIC_V2 ? record.getShort() & 0xFFFF : record.get() & 0xFF;
            byte[] topicBytes = new byte[topicLength];
            record.get(topicBytes);
            int propertiesLength = record.getShort() & 0xFFFF;
            byte[] propertyBytes = new byte[propertiesLength];
            record.get(propertyBytes);

            if ((sysFlag & MessageEncoder.COMPRESSED) != 0) {
                body = inflate(body, sysFlag, brokerName);
            }
            Map<String, String> properties = MessageProperties.decode(new String(propertyBytes, StandardCharsets.UTF_8));
            String topic = new String(topicBytes, StandardCharsets.UTF_8);
            String originalTopic = properties.get(MessageProperties.RETRY_TOPIC);
            if (SystemTopics.isRetryTopic(topic) && originalTopic != null) {
                topic = originalTopic;
            }
            String msgId = properties.get(MessageProperties.UNIQ_KEY);
            if (msgId == null) {
                msgId = offsetMsgId(storeHost, commitLogOffset);
            }
            return new ReceivedMessage(topic, body, properties, msgId, brokerName, queueId, queueOffset,
                    commitLogOffset, reconsumeTimes, bornTimestamp, storeTimestamp);
        } catch (BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new FerryException("truncated message record from " + brokerName, e);
        }
    }

    /** RocketMQ's offset message id: store address (IP and port) and commit-log offset, in hex. */
    static String offsetMsgId(byte[] storeHost, long commitLogOffset) {
        ByteBuffer id = ByteBuffer.allocate(storeHost.length + 8);
        id.put(storeHost).putLong(commitLogOffset);
        return HexFormat.of().withUpperCase().formatHex(id.array());
    }

    private static void skipHost(ByteBuffer record, boolean v6) {
        record.position(record.position() + (v6 ? 16 : 4) + 4);
    }

    private static byte[] host(ByteBuffer record, boolean v6) {
        byte[] host = new byte[(v6 ? 16 : 4) + 4];
        record.get(host);
        return host;
    }

    private static byte[] inflate(byte[] body, int sysFlag, String brokerName) {
        int type = (sysFlag >> 8) & 0x7;
        if (type != 0 && type != 3) {
            throw new FerryException("message from " + brokerName + " is compressed with type " + type
                    + "; only zlib is supported");
        }
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(body);
            ByteArrayOutputStream out = new ByteArrayOutputStream(body.length * 4);
            byte[] chunk = new byte[8192];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new FerryException("truncated zlib body from " + brokerName);
                }
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } catch (DataFormatException e) {
            throw new FerryException("corrupt zlib body from " + brokerName, e);
        } finally {
            inflater.end();
        }
    }
}
