package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** QUERY_MESSAGE response. */
public record QueryMessageResponseHeader(
        long indexLastUpdateTimestamp,
        long indexLastUpdatePhyoffset) implements CommandHeader {
}
