package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_ROUTEINFO_BY_TOPIC request. */
public record GetRouteInfoRequestHeader(
        @Required String topic,
        Boolean acceptStandardJsonOnly) implements CommandHeader {
}
