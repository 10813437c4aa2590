package dev.ferry.remoting.protocol.body;

import java.util.Set;

/** GET_PRODUCER_CONNECTION_LIST answer: a producer group's live clients at one broker. */
public record ProducerConnection(Set<Connection> connectionSet) {

    public ProducerConnection {
        connectionSet = connectionSet == null ? Set.of() : Set.copyOf(connectionSet);
    }
}
