package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/**
 * GET_CONSUME_STATS request: a group's progress on one topic, on {@code ;}-separated topics, or on every topic it has
 * offsets for.
 */
public record GetConsumeStatsRequestHeader(
        @Required String consumerGroup,
        String topic,
        String topicList) implements CommandHeader {
}
