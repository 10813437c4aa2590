package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import java.util.List;

/**
 * The argument rules every built-in strategy shares with RocketMQ's: blank client id or empty lists
 * are a caller bug (exception); a client missing from the list gets nothing until the next rebalance.
 */
abstract class CheckedAllocateStrategy implements AllocateStrategy {

    private static final System.Logger LOG = System.getLogger(CheckedAllocateStrategy.class.getName());

    @Override
    public final List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
            List<String> clientIds) {
        if (clientId == null || clientId.isBlank()) {
            throw new IllegalArgumentException("clientId is blank");
        }
        if (queues == null || queues.isEmpty()) {
            throw new IllegalArgumentException("queues is null or empty");
        }
        if (clientIds == null || clientIds.isEmpty()) {
            throw new IllegalArgumentException("clientIds is null or empty");
        }
        int clientIndex = clientIds.indexOf(clientId);
        if (clientIndex < 0) {
            // Usually a stale consumer list from the broker; the next rebalance corrects it.
            LOG.log(System.Logger.Level.INFO, "Consumer {0} of group {1} is not among {2}; it reads none of the topic''s"
                    + " queues until the next rebalance", clientId, group, clientIds);
            return List.of();
        }
        return allocate(group, clientIndex, queues, clientIds);
    }

    /**
     * @param group the consumer group
     * @param clientIndex the asking client's index in {@code clientIds}
     * @param queues the sorted, non-empty queues
     * @param clientIds the sorted, non-empty client ids
     * @return the asking client's queues
     */
    abstract List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues,
            List<String> clientIds);
}
