package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.List;

/**
 * Contiguous pages: client {@code i} of {@code c} reads a run of {@code q/c} queues, the first
 * {@code q % c} clients one more. With 8 queues and 3 clients: {0-2}, {3-5}, {6-7}. Surplus clients
 * read nothing. Same result as RocketMQ's {@code AVG}.
 */
final class AveragelyStrategy extends CheckedAllocateStrategy {

    static final String NAME = "averagely";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        int queueCount = queues.size();
        int clientCount = clientIds.size();
        int base = queueCount / clientCount;
        int remainder = queueCount % clientCount;
        int size = base + (clientIndex < remainder ? 1 : 0);
        int start = clientIndex * base + Math.min(clientIndex, remainder);
        return List.copyOf(queues.subList(Math.min(start, queueCount), Math.min(start + size, queueCount)));
    }
}
