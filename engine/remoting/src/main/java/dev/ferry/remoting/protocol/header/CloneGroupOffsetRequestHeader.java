package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** CLONE_GROUP_OFFSET request: the source group's offsets on a topic (or all its topics) copied to the destination. */
public record CloneGroupOffsetRequestHeader(
        @Required String srcGroup,
        @Required String destGroup,
        String topic,
        boolean offline) implements CommandHeader {
}
