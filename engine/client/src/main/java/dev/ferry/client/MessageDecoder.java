package dev.ferry.client;

import dev.ferry.api.FerryException;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.BodyCompression;
import dev.ferry.remoting.protocol.header.ReplyMessageRequestHeader;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredEntries;
import dev.ferry.format.StoredMessageCodec;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the stored-message records of a pull response or a transaction check into {@link ReceivedMessage}s. Each
 * record's layout is checked before it is read, and a compressed body is inflated up to a bound.
 */
final class MessageDecoder {
    private final int maxBodySize;

    /** @param maxBodySize the largest body a compressed one may inflate to */
    MessageDecoder(int maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    /**
     * @param body       records back to back; null is none
     * @param brokerName the broker the records came from
     * @throws FerryException when a record is malformed
     */
    List<ReceivedMessage> decodeAll(byte[] body, String brokerName) {
        if (body == null) {
            return List.of();
        }
        List<ByteBuffer> records;
        try {
            records = StoredEntries.records(ByteBuffer.wrap(body));
        } catch (IllegalArgumentException e) {
            throw new FerryException("malformed message records from " + brokerName + ": " + e.getMessage(), e);
        }
        List<ReceivedMessage> messages = new ArrayList<>(records.size());
        for (ByteBuffer record : records) {
            messages.add(decode(record, brokerName));
        }
        return messages;
    }

    /**
     * A reply a broker pushed (PUSH_REPLY_MESSAGE_TO_CLIENT): its header and body, inflated when compressed, with
     * {@link MessageProperties#REPLY_ARRIVE_TIME} added; its broker is named by the host that stored it.
     *
     * @throws FerryException when a compressed body does not inflate within the bound
     */
    ReceivedMessage reply(ReplyMessageRequestHeader header, byte[] body, long arrivedMillis) {
        byte[] inflated = body == null ? new byte[0] : body;
        if (SysFlags.isCompressed(header.sysFlag())) {
            try {
                inflated = BodyCompression.inflate(inflated, header.sysFlag(), maxBodySize);
            } catch (IllegalArgumentException e) {
                throw new FerryException("reply from " + header.storeHost() + ": " + e.getMessage(), e);
            }
        }
        Map<String, String> properties = MessageProperties.parse(header.properties());
        properties.put(MessageProperties.REPLY_ARRIVE_TIME, Long.toString(arrivedMillis));
        String msgId = properties.getOrDefault(MessageProperties.UNIQ_KEY, "0");
        return new ReceivedMessage(header.topic(), inflated, properties, msgId, header.storeHost(), header.queueId(),
                0, 0, header.reconsumeTimes() == null ? 0 : header.reconsumeTimes(), header.bornTimestamp(),
                header.storeTimestamp());
    }

    /** One record, exactly its bytes. */
    ReceivedMessage decode(ByteBuffer record, String brokerName) {
        String problem = StoredMessageCodec.layoutProblem(record);
        if (problem != null) {
            throw new FerryException("malformed message record from " + brokerName + ": " + problem);
        }
        StoredMessageView view = StoredMessageView.over(record);
        byte[] body = view.bodyBytes();
        if (SysFlags.isCompressed(view.sysFlag())) {
            try {
                body = BodyCompression.inflate(body, view.sysFlag(), maxBodySize);
            } catch (IllegalArgumentException e) {
                throw new FerryException("message " + view.offsetMessageId() + " from " + brokerName + ": "
                        + e.getMessage(), e);
            }
        }
        Map<String, String> properties = view.properties();
        String topic = view.topic();
        String originalTopic = properties.get(MessageProperties.RETRY_TOPIC);
        if (SystemTopics.isRetryTopic(topic) && originalTopic != null) {
            topic = originalTopic;
        }
        String msgId = properties.get(MessageProperties.UNIQ_KEY);
        if (msgId == null) {
            msgId = view.offsetMessageId();
        }
        return new ReceivedMessage(topic, body, properties, msgId, brokerName, view.queueId(), view.queueOffset(),
                view.physicalOffset(), view.reconsumeTimes(), view.bornTimestamp(), view.storeTimestamp());
    }
}
