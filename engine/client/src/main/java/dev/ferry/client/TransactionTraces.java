package dev.ferry.client;

import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.TraceRecord;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;

/**
 * Writes an EndTransaction record each time a traced producer ends a transaction, as RocketMQ's producer does: after
 * its local transaction, whatever the outcome (UNKNOW included), and after answering a broker's check, marked as
 * such. The record is typed as a commit whatever the state, and its transaction id is the message id, as RocketMQ's
 * client writes them. A message to the trace topic itself is not traced. Thread-safe.
 */
final class TransactionTraces {
    private final TraceWriter writer;
    private final String group;
    private final Clock clock;
    private final String traceTopic;

    TransactionTraces(TraceWriter writer, String group, Clock clock, String traceTopic) {
        this.writer = writer;
        this.group = group;
        this.clock = clock;
        this.traceTopic = traceTopic;
    }

    /**
     * A transaction ended by this producer after its local transaction.
     *
     * @param storeHost the address of the broker told, or null when unknown
     */
    void ended(Message message, String msgId, String storeHost, TransactionState state) {
        // a message being sent carries no region: the broker stamps it
        write(TraceRecord.DEFAULT_REGION, message.topic(), msgId, message.tags().orElse(null),
                SendTraces.keys(message), storeHost, msgId, state, false);
    }

    /** A half message's transaction ended by an explicit commit or rollback of this producer. */
    void ended(HalfMessage half, String storeHost, TransactionState state) {
        write(region(half.properties()), half.topic(), half.msgId(), half.property(MessageProperties.TAGS)
                .orElse(null), half.property(MessageProperties.KEYS).orElse(null), storeHost, half.msgId(), state,
                false);
    }

    /**
     * A transaction ended by this producer's answer to a broker's check.
     *
     * @param broker the address the check came from
     */
    void checked(ReceivedMessage message, SocketAddress broker, TransactionState state) {
        Map<String, String> properties = message.properties();
        String uniqueKey = properties.get(MessageProperties.UNIQ_KEY);
        // the topic the message is delivered to on commit: RocketMQ's broker puts it in the checked message's topic;
        // one that leaves the half topic there still names it in REAL_TOPIC
        String realTopic = properties.get(MessageProperties.REAL_TOPIC);
        String topic = realTopic == null || realTopic.isEmpty() ? message.topic() : realTopic;
        write(region(properties), topic, uniqueKey == null ? message.msgId() : uniqueKey,
                properties.get(MessageProperties.TAGS), properties.get(MessageProperties.KEYS), hostPort(broker),
                uniqueKey == null || uniqueKey.isEmpty() ? null : uniqueKey, state, true);
    }

    private void write(String region, String topic, String msgId, String tags, String keys, String storeHost,
                       String transactionId, TransactionState state, boolean fromCheck) {
        if (topic.startsWith(traceTopic)) {
            return;
        }
        writer.write(new TraceRecord.EndTransaction(clock.millis(), region, group, topic, msgId, tags, keys,
                storeHost, TraceRecord.MessageType.TRANSACTION_COMMIT, transactionId, stateName(state), fromCheck));
    }

    /** RocketMQ's LocalTransactionState name, which the record holds. */
    static String stateName(TransactionState state) {
        return switch (state) {
            case COMMIT -> "COMMIT_MESSAGE";
            case ROLLBACK -> "ROLLBACK_MESSAGE";
            case UNKNOWN -> "UNKNOW";
        };
    }

    private static String region(Map<String, String> properties) {
        String region = properties.get(MessageProperties.MESSAGE_REGION);
        return region == null || region.isEmpty() ? TraceRecord.DEFAULT_REGION : region;
    }

    /** The address as RocketMQ's client names a channel's peer: ip:port. */
    private static String hostPort(SocketAddress address) {
        if (address instanceof InetSocketAddress inet) {
            String host = inet.getAddress() == null ? inet.getHostString() : inet.getAddress().getHostAddress();
            return host + ":" + inet.getPort();
        }
        return address == null ? null : address.toString();
    }
}
