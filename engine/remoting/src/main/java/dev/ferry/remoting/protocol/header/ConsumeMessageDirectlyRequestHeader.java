package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** CONSUME_MESSAGE_DIRECTLY request: one stored message handed to one client's listener. */
public record ConsumeMessageDirectlyRequestHeader(
        @Required String consumerGroup,
        String clientId,
        String msgId,
        String brokerName,
        String topic,
        Integer topicSysFlag,
        Integer groupSysFlag) implements CommandHeader {
}
