package dev.ferry.samples.custom;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import java.util.List;

/**
 * Gives queue {@code n} of every broker to client {@code n % clients}: consumers line up with queue
 * numbers across brokers, which suits producers that pick the queue by a key's number.
 */
final class QueueIdModuloStrategy implements AllocateStrategy {

    static final String NAME = "queue-id-modulo";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
            List<String> clientIds) {
        int index = clientIds.indexOf(clientId);
        if (index < 0) {
            return List.of();
        }
        return queues.stream().filter(queue -> queue.queueId() % clientIds.size() == index).toList();
    }
}
