package dev.ferry.client;

import java.util.Optional;
import java.util.Set;

/** What the client's services ask about routes: the client's {@link RouteCache}, or a test's fixed routes. */
interface Routes {
    /** The cached route of {@code topic}, if any. */
    Optional<TopicRoute> route(String topic);

    /** Asks the name servers for the route of {@code topic} now. */
    Optional<TopicRoute> refresh(String topic);

    /** The master address of {@code brokerName}, from any cached route. */
    Optional<String> brokerAddress(String brokerName);

    /** Where to read {@code brokerName}'s queues: its master, or while it has none a slave. */
    default Optional<String> readAddress(String brokerName) {
        return brokerAddress(brokerName);
    }

    /** Every broker address (masters and slaves) of every cached route. */
    Set<String> brokerAddresses();

    /** Whether the name servers answered the last request for a route (when not, that has been said already). */
    default boolean nameServerReachable() {
        return true;
    }
}
