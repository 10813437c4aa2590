package dev.ferry.remoting.protocol.body;

import java.util.Map;
import java.util.Set;

/** GET_CONSUMER_CONNECTION_LIST answer: a group's live clients, subscriptions and settings at one broker. */
public record ConsumerConnection(Set<Connection> connectionSet, Map<String, SubscriptionData> subscriptionTable,
                                 String consumeType, String messageModel, String consumeFromWhere) {

    public ConsumerConnection {
        connectionSet = connectionSet == null ? Set.of() : Set.copyOf(connectionSet);
        subscriptionTable = subscriptionTable == null ? Map.of() : Map.copyOf(subscriptionTable);
    }
}
