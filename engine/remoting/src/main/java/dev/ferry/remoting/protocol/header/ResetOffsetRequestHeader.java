package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** INVOKE_BROKER_TO_RESET_OFFSET request (from an admin) and RESET_CONSUMER_CLIENT_OFFSET request (to a client):
 * the group's offsets on the topic moved to the first message stored at or after {@code timestamp}, or, for one queue,
 * to {@code offset}. Apache names the force flag {@code isForce} on the wire. */
public record ResetOffsetRequestHeader(
        @Required String topic,
        @Required String group,
        Integer queueId,
        Long offset,
        long timestamp,
        boolean isForce) implements CommandHeader {
}
