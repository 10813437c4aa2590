package dev.ferry.api;

import dev.ferry.format.MessageProperties;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A message as a consumer receives it: what was sent plus where and when it was stored.
 *
 * @param topic the topic it was sent to (for a redelivered message, the original topic, not the retry topic)
 * @param body the body, uncompressed; shared, do not modify
 * @param properties every property, system ones ({@code TAGS}, {@code KEYS}, {@code UNIQ_KEY}, ...) included
 * @param msgId the unique id the producer gave it (or the offset id when it has none)
 * @param brokerName the broker (set) it was read from
 * @param queueId the queue it was read from
 * @param queueOffset its offset in that queue
 * @param commitLogOffset its offset in the broker's commit log
 * @param reconsumeTimes how often it was delivered again after a failure
 * @param bornTimestamp when the producer sent it, epoch milliseconds
 * @param storeTimestamp when the broker stored it, epoch milliseconds
 */
public record ReceivedMessage(String topic, byte[] body, Map<String, String> properties, String msgId,
                             String brokerName, int queueId, long queueOffset, long commitLogOffset,
                             int reconsumeTimes, long bornTimestamp, long storeTimestamp) {

    /** Checks the parts are present and freezes the properties. */
    public ReceivedMessage {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(body, "body");
        properties = Map.copyOf(properties);
        Objects.requireNonNull(msgId, "msgId");
        Objects.requireNonNull(brokerName, "brokerName");
    }

    /** The tag, if any. */
    public Optional<String> tags() {
        return property(MessageProperties.TAGS);
    }

    /** The keys, possibly empty. */
    public List<String> keys() {
        String keys = properties.get(MessageProperties.KEYS);
        return keys == null ? List.of() : Arrays.stream(keys.split(MessageProperties.KEY_SEPARATOR)).filter(k -> !k.isEmpty()).toList();
    }

    /** One property. */
    public Optional<String> property(String name) {
        return Optional.ofNullable(properties.get(name));
    }

    /** The queue it was read from. */
    public MessageQueue messageQueue() {
        return new MessageQueue(topic, brokerName, queueId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReceivedMessage other && topic.equals(other.topic) && Arrays.equals(body, other.body)
                && properties.equals(other.properties) && msgId.equals(other.msgId)
                && brokerName.equals(other.brokerName) && queueId == other.queueId
                && queueOffset == other.queueOffset && commitLogOffset == other.commitLogOffset
                && reconsumeTimes == other.reconsumeTimes && bornTimestamp == other.bornTimestamp
                && storeTimestamp == other.storeTimestamp;
    }

    @Override
    public int hashCode() {
        return Objects.hash(topic, Arrays.hashCode(body), msgId, brokerName, queueId, queueOffset);
    }

    @Override
    public String toString() {
        return "ReceivedMessage[topic=" + topic + ", msgId=" + msgId + ", queue=" + brokerName + "/" + queueId
                + ", queueOffset=" + queueOffset + ", reconsumeTimes=" + reconsumeTimes + ", body=" + body.length
                + " bytes, properties=" + properties + "]";
    }
}
