package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * Dealing round the table: client {@code i} of {@code c} reads queues {@code i, i+c, i+2c, ...}. With 8
 * queues and 3 clients: {0,3,6}, {1,4,7}, {2,5}. Same result as RocketMQ's {@code AVG_BY_CIRCLE}.
 */
final class AveragelyByCircleStrategy extends CheckedAllocateStrategy {

    static final String NAME = "averagely-by-circle";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        List<MessageQueue> mine = new ArrayList<>();
        for (int i = clientIndex; i < queues.size(); i += clientIds.size()) {
            mine.add(queues.get(i));
        }
        return List.copyOf(mine);
    }
}
