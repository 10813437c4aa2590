package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** GET_EARLIEST_MSG_STORETIME response. */
public record GetEarliestMsgStoretimeResponseHeader(
        long timestamp) implements CommandHeader {
}
