package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_BROKER_CONFIG response: the configuration's data version as JSON. */
public record GetBrokerConfigResponseHeader(
        @Required String version) implements CommandHeader {
}
