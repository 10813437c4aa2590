package dev.ferry.client;

import dev.ferry.format.MessageProperties;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A half message: stored by a broker in its transaction half topic, delivered to {@link #topic()} only once its
 * transaction is committed ({@link Producer#endTransaction}). Carries what END_TRANSACTION must name.
 *
 * @param brokerName the broker (set) that holds it
 * @param topic the topic it is delivered to on commit
 * @param queueId the queue of that topic it is delivered to
 * @param queueOffset its offset in the broker's half queue ({@code tranStateTableOffset} on the wire)
 * @param commitLogOffset its offset in the broker's commit log
 * @param msgId its unique id ({@code UNIQ_KEY}), which the delivered message keeps
 * @param properties its properties, those the application set included
 */
public record HalfMessage(String brokerName, String topic, int queueId, long queueOffset, long commitLogOffset, String msgId,
                          Map<String, String> properties) {

    public HalfMessage {
        Objects.requireNonNull(brokerName, "brokerName");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(msgId, "msgId");
        properties = Map.copyOf(properties);
    }

    /** A property, if set. */
    public Optional<String> property(String name) {
        return Optional.ofNullable(properties.get(name));
    }

    /** The producer group that sent it, which alone may end its transaction. */
    public Optional<String> producerGroup() {
        return property(MessageProperties.PRODUCER_GROUP);
    }

    @Override
    public String toString() {
        return "HalfMessage[" + msgId + " for " + topic + " at " + brokerName + ", half queue offset " + queueOffset
                + "]";
    }
}
