package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.HeaderField;
import dev.ferry.remoting.protocol.Required;

/** SEARCH_OFFSET_BY_TIMESTAMP request; {@code boundaryType} is LOWER or UPPER. */
public record SearchOffsetRequestHeader(
        @Required String topic,
        int queueId,
        long timestamp,
        String boundaryType,
        @HeaderField("bname") String brokerName) implements CommandHeader {
}
