package dev.ferry.liberty.apps;

import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One call of a test bean, as the probe resource shows it.
 *
 * @param overlapped whether another delivery of the same queue was still running in the same bean (an orderly
 *     bean must never see that)
 * @param batch which call of a batch bean delivered it (1, 2, ...); 0 for a bean that takes one message a call
 * @param transaction the key of the container's transaction the delivery ran in, if any
 * @param at when the delivery began, epoch milliseconds
 */
public record Delivery(String bean, String topic, String msgId, String tags, List<String> keys,
                       Map<String, String> properties, String body, int queueId, long queueOffset,
                       int reconsumeTimes, boolean overlapped, int batch, String transaction, long at) {

    static Delivery of(String bean, ReceivedMessage message, boolean overlapped) {
        return of(bean, message, overlapped, 0, null);
    }

    static Delivery of(String bean, ReceivedMessage message, boolean overlapped, int batch, String transaction) {
        return new Delivery(bean, message.topic(), message.msgId(), message.tags().orElse(null), message.keys(),
                message.properties(), new String(message.body(), StandardCharsets.UTF_8), message.queueId(),
                message.queueOffset(), message.reconsumeTimes(), overlapped, batch, transaction,
                System.currentTimeMillis());
    }
}
