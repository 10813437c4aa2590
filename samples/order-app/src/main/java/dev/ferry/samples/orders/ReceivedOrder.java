package dev.ferry.samples.orders;

import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** One message as {@code GET /orders/received} shows it; the body as UTF-8 text. */
public record ReceivedOrder(String topic, String msgId, String tags, List<String> keys,
                            Map<String, String> properties, String body, int queueId, long queueOffset,
                            int reconsumeTimes, long bornTimestamp) {

    static ReceivedOrder of(ReceivedMessage message) {
        return new ReceivedOrder(message.topic(), message.msgId(), message.tags().orElse(null), message.keys(),
                message.properties(), new String(message.body(), StandardCharsets.UTF_8), message.queueId(),
                message.queueOffset(), message.reconsumeTimes(), message.bornTimestamp());
    }
}
