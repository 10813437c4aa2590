package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** QUERY_MESSAGE request: messages with a key stored within a time range. */
public record QueryMessageRequestHeader(
        @Required String topic,
        @Required String key,
        int maxNum,
        long beginTimestamp,
        long endTimestamp) implements CommandHeader {

    /** The ext field with which Apache's admin marks a lookup by message id (UNIQ_KEY) rather than by KEYS. */
    public static final String UNIQUE_KEY_QUERY = "_UNIQUE_KEY_QUERY";
}
