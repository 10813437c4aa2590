package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** VIEW_MESSAGE_BY_ID request: the commit-log offset of the message. */
public record ViewMessageRequestHeader(
        String topic,
        long offset) implements CommandHeader {
}
