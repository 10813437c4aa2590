package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** A request naming one topic: GET_TOPIC_STATS_INFO, GET_TOPIC_CONFIG, QUERY_TOPIC_CONSUME_BY_WHO. */
public record TopicRequestHeader(
        @Required String topic) implements CommandHeader {
}
