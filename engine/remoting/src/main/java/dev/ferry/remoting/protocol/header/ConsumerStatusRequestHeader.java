package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_CONSUMER_STATUS_FROM_CLIENT and INVOKE_BROKER_TO_GET_CONSUMER_STATUS request ({@code clientAddr}: the one client
 * asked for, by id). */
public record ConsumerStatusRequestHeader(
        @Required String topic,
        @Required String group,
        String clientAddr) implements CommandHeader {
}
