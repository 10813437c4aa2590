package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** Response of GET_MAX_OFFSET, GET_MIN_OFFSET and SEARCH_OFFSET_BY_TIMESTAMP: one offset. */
public record OffsetResponseHeader(
        long offset) implements CommandHeader {
}
