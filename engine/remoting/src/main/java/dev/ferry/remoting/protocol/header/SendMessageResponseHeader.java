package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** Response to the send requests. */
public record SendMessageResponseHeader(
        @Required String msgId,
        int queueId,
        long queueOffset,
        String transactionId,
        String batchUniqId) implements CommandHeader {
}
