package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;
import dev.ferry.remoting.protocol.Required;

/** PUT_KV_CONFIG, GET_KV_CONFIG and DELETE_KV_CONFIG request ({@code value} only for a put). */
public record KvConfigRequestHeader(
        @Required String namespace,
        @Required String key,
        String value) implements CommandHeader {
}
