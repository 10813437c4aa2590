package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** QUERY_CONSUMER_OFFSET response. */
public record QueryConsumerOffsetResponseHeader(
        long offset) implements CommandHeader {
}
