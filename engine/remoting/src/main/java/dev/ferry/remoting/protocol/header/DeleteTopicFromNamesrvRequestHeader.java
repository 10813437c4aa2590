package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** DELETE_TOPIC_IN_NAMESRV request: the topic, from one cluster's brokers or (without a cluster) entirely. */
public record DeleteTopicFromNamesrvRequestHeader(
        @Required String topic,
        String clusterName) implements CommandHeader {
}
