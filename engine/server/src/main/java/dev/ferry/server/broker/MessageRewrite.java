package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A stored message written again elsewhere: to the schedule topic and back, to a retry topic or
 * DLQ, from the half topic to its real topic. Everything the producer set travels along; only the
 * destination, the properties given and the transaction bits change.

 */
final class MessageRewrite {

    private final StoredMessageView original;
    private final Map<String, String> properties;
    private int reconsumeTimes;
    private int transactionType = SysFlags.TRANSACTION_NOT_TYPE;

    private MessageRewrite(StoredMessageView original) {
        this.original = original;
        this.properties = new LinkedHashMap<>(original.properties());
        this.reconsumeTimes = original.reconsumeTimes();
    }

    static MessageRewrite of(StoredMessageView original) {
        return new MessageRewrite(original);
    }

    /** Sets a property, or removes it when {@code value} is null. */
    MessageRewrite property(String name, String value) {
        if (value == null) {
            properties.remove(name);
        } else {
            properties.put(name, value);
        }
        return this;
    }

    /** Sets a property unless the message has it already. */
    MessageRewrite propertyIfAbsent(String name, String value) {
        if (value != null) {
            properties.putIfAbsent(name, value);
        }
        return this;
    }

    MessageRewrite reconsumeTimes(int value) {
        this.reconsumeTimes = value;
        return this;
    }

    MessageRewrite transactionType(int value) {
        this.transactionType = value;
        return this;
    }

    String property(String name) {
        return properties.get(name);
    }

    /** The message for {@code topic}:{@code queueId}, stored by the broker at {@code storeHost}. */
    MessageToStore to(String topic, int queueId, InetSocketAddress storeHost) {
        int sysFlag = (original.sysFlag() & ~SysFlags.TRANSACTION_ROLLBACK_TYPE) | transactionType;
        return MessageToStore.builder(topic, queueId, original.bodyBytes()).flag(original.flag())
                .properties(MessageProperties.format(properties)).sysFlag(sysFlag)
                .bornTimestamp(original.bornTimestamp()).bornHost(original.bornHost())
                .storeHost(storeHost).reconsumeTimes(reconsumeTimes).build();
    }
}
