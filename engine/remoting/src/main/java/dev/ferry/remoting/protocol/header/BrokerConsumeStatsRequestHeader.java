package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** GET_BROKER_CONSUME_STATS request ({@code isOrder}: ordered topics only). */
public record BrokerConsumeStatsRequestHeader(
        boolean isOrder) implements CommandHeader {
}
