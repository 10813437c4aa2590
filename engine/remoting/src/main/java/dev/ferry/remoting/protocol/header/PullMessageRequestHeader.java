package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** PULL_MESSAGE and LITE_PULL_MESSAGE request. */
public record PullMessageRequestHeader(
        @Required String consumerGroup,
        @Required String topic,
        int queueId,
        long queueOffset,
        int maxMsgNums,
        int sysFlag,
        long commitOffset,
        long suspendTimeoutMillis,
        String subscription,
        long subVersion,
        String expressionType,
        Integer maxMsgBytes,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
