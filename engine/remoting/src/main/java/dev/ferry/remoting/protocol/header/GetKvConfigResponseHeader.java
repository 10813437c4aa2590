package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_KV_CONFIG response. */
public record GetKvConfigResponseHeader(
        String value) implements CommandHeader {
}
