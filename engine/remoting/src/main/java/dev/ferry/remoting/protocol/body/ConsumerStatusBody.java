package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;

/**
 * GET_CONSUMER_STATUS_FROM_CLIENT answer ({@code messageQueueTable}: one client's offsets on a topic) and
 * INVOKE_BROKER_TO_GET_CONSUMER_STATUS answer ({@code consumerTable}: those of each client, by id). Apache calls it
 * GetConsumerStatusBody.
 */
public record ConsumerStatusBody(
        @JsonSerialize(using = QueueKeyedMapSerializer.class) Map<MessageQueueBody, Long> messageQueueTable,
        @JsonSerialize(contentUsing = QueueKeyedMapSerializer.class)
        Map<String, Map<MessageQueueBody, Long>> consumerTable) implements ObjectKeyedBody {

    public ConsumerStatusBody {
        messageQueueTable = messageQueueTable == null ? Map.of() : Map.copyOf(messageQueueTable);
        consumerTable = consumerTable == null ? Map.of() : Map.copyOf(consumerTable);
    }
}
