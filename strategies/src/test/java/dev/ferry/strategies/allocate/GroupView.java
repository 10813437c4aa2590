package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/** Runs a strategy for every member of a group, each member with its own instance, as real consumers do. */
final class GroupView {

    static final String GROUP = "group";

    private final Supplier<AllocateStrategy> strategies;
    private final Map<String, AllocateStrategy> members = new LinkedHashMap<>();

    GroupView(Supplier<AllocateStrategy> strategies) {
        this.strategies = strategies;
    }

    /** @return each client's queues after one rebalance of every member */
    Map<String, List<MessageQueue>> rebalance(List<MessageQueue> queues, List<String> clientIds) {
        Map<String, List<MessageQueue>> result = new TreeMap<>();
        for (String clientId : clientIds) {
            AllocateStrategy strategy = members.computeIfAbsent(clientId, id -> strategies.get());
            result.put(clientId, strategy.allocate(GROUP, clientId, queues, clientIds));
        }
        return result;
    }

    /** @return the owner of each queue, failing if a queue has two */
    static Map<MessageQueue, String> owners(Map<String, List<MessageQueue>> assignment) {
        Map<MessageQueue, String> owners = new TreeMap<>();
        assignment.forEach((client, queues) -> queues.forEach(queue -> {
            String previous = owners.put(queue, client);
            if (previous != null) {
                throw new AssertionError(queue + " goes to both " + previous + " and " + client);
            }
        }));
        return owners;
    }
}
