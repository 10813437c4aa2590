package dev.ferry.server.broker;

import dev.ferry.format.MessageProperties;
import dev.ferry.store.MessageToStore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message on its way to the store, with its properties read once: every step of a {@link SendRoute} looks them up
 * here and gives back a changed copy, and only a changed message has its properties written out again. A message no
 * step changed is stored with the properties exactly as they came.
 */
final class SendingMessage {
    private final MessageToStore message;
    private final Map<String, String> properties;
    private final boolean rewritten;
    /** The producer's limit of retries (MAX_RECONSUME_TIMES in the send header), null when it set none. */
    private final Integer maxReconsumeTimes;

    private SendingMessage(MessageToStore message, Map<String, String> properties, boolean rewritten,
                           Integer maxReconsumeTimes) {
        this.message = message;
        this.properties = properties;
        this.rewritten = rewritten;
        this.maxReconsumeTimes = maxReconsumeTimes;
    }

    /** {@code message} with its properties read. */
    static SendingMessage of(MessageToStore message) {
        return of(message, null);
    }

    /** {@code message} with its properties read, and the retry limit its producer sent along. */
    static SendingMessage of(MessageToStore message, Integer maxReconsumeTimes) {
        return new SendingMessage(message, Collections.unmodifiableMap(MessageProperties.parse(message.properties())),
                false, maxReconsumeTimes);
    }

    String topic() {
        return message.topic();
    }

    int queueId() {
        return message.queueId();
    }

    int sysFlag() {
        return message.sysFlag();
    }

    int reconsumeTimes() {
        return message.reconsumeTimes();
    }

    Integer maxReconsumeTimes() {
        return maxReconsumeTimes;
    }

    /** The property's value, or null. */
    String property(String name) {
        return properties.get(name);
    }

    boolean has(String name) {
        return properties.containsKey(name);
    }

    /** All its properties, as read (unmodifiable). */
    Map<String, String> properties() {
        return properties;
    }

    /** The message bound for {@code topic}:{@code queueId} instead. */
    SendingMessage to(String topic, int queueId) {
        return with(new MessageToStore(topic, queueId, message.flag(), message.body(), message.properties(),
                message.sysFlag(), message.bornTimestamp(), message.bornHost(), message.storeHost(),
                message.reconsumeTimes(), message.preparedTransactionOffset()), properties, rewritten);
    }

    SendingMessage withSysFlag(int value) {
        return with(new MessageToStore(message.topic(), message.queueId(), message.flag(), message.body(),
                message.properties(), value, message.bornTimestamp(), message.bornHost(), message.storeHost(),
                message.reconsumeTimes(), message.preparedTransactionOffset()), properties, rewritten);
    }

    /**
     * The message with the properties set as given (a null value removes one); its properties are written out again
     * when it is stored, even when nothing was there to remove.
     */
    SendingMessage withProperties(Map<String, String> changes) {
        Map<String, String> changed = new LinkedHashMap<>(properties);
        changes.forEach((name, value) -> {
            if (value == null) {
                changed.remove(name);
            } else {
                changed.put(name, value);
            }
        });
        return with(message, Collections.unmodifiableMap(changed), true);
    }

    /** The message as the store takes it. */
    MessageToStore toStore() {
        if (!rewritten) {
            return message;
        }
        return new MessageToStore(message.topic(), message.queueId(), message.flag(), message.body(),
                MessageProperties.format(properties), message.sysFlag(), message.bornTimestamp(), message.bornHost(),
                message.storeHost(), message.reconsumeTimes(), message.preparedTransactionOffset());
    }

    private SendingMessage with(MessageToStore changed, Map<String, String> changedProperties, boolean isRewritten) {
        return new SendingMessage(changed, changedProperties, isRewritten, maxReconsumeTimes);
    }
}
