package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;

/** Routes a test sets up: topics with their queues on one broker each. */
final class FixedRoutes implements Routes {
    private final Map<String, TopicRoute> routes = new LinkedHashMap<>();
    volatile Runnable beforeEachCall = () -> { };

    /** {@code topic} with {@code queues} queues on {@code brokerName} at {@code address}. */
    FixedRoutes topic(String topic, String brokerName, String address, int queues) {
        List<MessageQueue> all = IntStream.range(0, queues).mapToObj(i -> new MessageQueue(topic, brokerName, i))
                .toList();
        routes.put(topic, new TopicRoute(topic, all, all, Map.of(brokerName, address), Map.of(brokerName, address),
                null));
        return this;
    }

    @Override
    public Optional<TopicRoute> route(String topic) {
        beforeEachCall.run();
        return Optional.ofNullable(routes.get(topic));
    }

    @Override
    public Optional<TopicRoute> refresh(String topic) {
        return route(topic);
    }

    @Override
    public Optional<String> brokerAddress(String brokerName) {
        return routes.values().stream().map(r -> r.brokerAddresses().get(brokerName)).filter(a -> a != null)
                .findFirst();
    }

    @Override
    public Set<String> brokerAddresses() {
        Set<String> all = new TreeSet<>();
        routes.values().forEach(r -> all.addAll(r.brokerAddresses().values()));
        return all;
    }
}
