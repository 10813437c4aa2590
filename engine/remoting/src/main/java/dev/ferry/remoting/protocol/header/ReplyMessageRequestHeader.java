package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/**
 * PUSH_REPLY_MESSAGE_TO_CLIENT request (broker to requester): the reply's send header as the replier gave it, with
 * where it was born and stored. Apache's client requires every field but {@code properties} and
 * {@code reconsumeTimes}; hosts are {@code host:port}.
 */
public record ReplyMessageRequestHeader(
        @Required String producerGroup,
        @Required String topic,
        @Required String defaultTopic,
        int defaultTopicQueueNums,
        int queueId,
        int sysFlag,
        long bornTimestamp,
        int flag,
        String properties,
        Integer reconsumeTimes,
        Boolean unitMode,
        @Required String bornHost,
        @Required String storeHost,
        long storeTimestamp) implements CommandHeader {
}
