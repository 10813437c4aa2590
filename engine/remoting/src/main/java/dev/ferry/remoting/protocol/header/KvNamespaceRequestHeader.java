package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** GET_KVLIST_BY_NAMESPACE request. */
public record KvNamespaceRequestHeader(
        @Required String namespace) implements CommandHeader {
}
