package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** VIEW_BROKER_STATS_DATA request: a statistic ({@code TOPIC_PUT_NUMS}, {@code GROUP_GET_NUMS}, ...) of one key. */
public record ViewBrokerStatsDataRequestHeader(
        @Required String statsName,
        @Required String statsKey) implements CommandHeader {
}
