package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** NOTIFY_CONSUMER_IDS_CHANGED request (broker to consumer). */
public record NotifyConsumerIdsChangedRequestHeader(
        @Required String consumerGroup,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
