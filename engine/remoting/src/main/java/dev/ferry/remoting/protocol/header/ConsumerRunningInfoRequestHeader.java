package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_CONSUMER_RUNNING_INFO request: what one client of a group is doing. */
public record ConsumerRunningInfoRequestHeader(
        @Required String consumerGroup,
        @Required String clientId,
        Boolean jstackEnable) implements CommandHeader {
}
