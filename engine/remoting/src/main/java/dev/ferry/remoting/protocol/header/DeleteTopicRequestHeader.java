package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** DELETE_TOPIC_IN_BROKER request. */
public record DeleteTopicRequestHeader(
        @Required String topic) implements CommandHeader {
}
