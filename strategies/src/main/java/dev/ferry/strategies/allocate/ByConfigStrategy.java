package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import java.util.List;

/**
 * Reads a fixed list of queues whatever the group looks like, like RocketMQ's {@code CONFIG}: no argument
 * checks, and several consumers may be configured with the same queue.
 */
final class ByConfigStrategy implements AllocateStrategy {

    static final String NAME = "by-config";

    private final List<MessageQueue> configured;

    ByConfigStrategy(List<MessageQueue> configured) {
        this.configured = List.copyOf(configured);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
            List<String> clientIds) {
        return configured;
    }
}
