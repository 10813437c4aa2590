package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** GET_MAX_OFFSET request. */
public record GetMaxOffsetRequestHeader(
        @Required String topic,
        int queueId,
        Boolean committed,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
