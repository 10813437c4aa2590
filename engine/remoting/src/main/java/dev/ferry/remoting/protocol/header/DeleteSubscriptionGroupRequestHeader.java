package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** DELETE_SUBSCRIPTIONGROUP request; {@code cleanOffset} also drops the group's committed offsets. */
public record DeleteSubscriptionGroupRequestHeader(
        @Required String groupName,
        boolean cleanOffset) implements CommandHeader {
}
