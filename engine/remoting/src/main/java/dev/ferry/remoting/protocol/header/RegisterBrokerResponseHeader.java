package dev.ferry.remoting.protocol.header;

import dev.ferry.remoting.protocol.CommandHeader;

/** REGISTER_BROKER response. */
public record RegisterBrokerResponseHeader(
        String haServerAddr,
        String masterAddr) implements CommandHeader {
}
