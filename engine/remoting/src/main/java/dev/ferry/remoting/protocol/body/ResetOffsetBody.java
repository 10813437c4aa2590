package dev.ferry.remoting.protocol.body;

import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.Map;

/**
 * The offsets a reset moves a group's queues to: INVOKE_BROKER_TO_RESET_OFFSET's answer, RESET_CONSUMER_CLIENT_OFFSET's
 * body.
 */
public record ResetOffsetBody(@JsonSerialize(using = QueueKeyedMapSerializer.class)
                              Map<MessageQueueBody, Long> offsetTable) implements ObjectKeyedBody {

    public ResetOffsetBody {
        offsetTable = offsetTable == null ? Map.of() : Map.copyOf(offsetTable);
    }
}
