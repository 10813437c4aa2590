package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_SUBSCRIPTIONGROUP_CONFIG request. */
public record SubscriptionGroupRequestHeader(
        @Required String group) implements CommandHeader {
}
