package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** GET_MIN_OFFSET request. */
public record GetMinOffsetRequestHeader(
        @Required String topic,
        int queueId,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
