package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.ArrayList;
import java.util.List;

/**
 * Places queues on a {@link HashRing} of the clients: a membership change moves only the queues next to
 * the changed client's points, at the price of uneven shares. Same result as RocketMQ's
 * {@code CONSISTENT_HASH}, which requires hashing the queue under Apache's {@code MessageQueue.toString()}.
 */
final class ConsistentHashStrategy extends CheckedAllocateStrategy {

    static final String NAME = "consistent-hash";

    private final int virtualNodes;

    ConsistentHashStrategy(int virtualNodes) {
        this.virtualNodes = virtualNodes;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        HashRing ring = new HashRing(clientIds, virtualNodes);
        String clientId = clientIds.get(clientIndex);
        List<MessageQueue> mine = new ArrayList<>();
        for (MessageQueue queue : queues) {
            if (clientId.equals(ring.owner(apacheKey(queue)))) {
                mine.add(queue);
            }
        }
        return List.copyOf(mine);
    }

    /** The exact text Apache's {@code MessageQueue.toString()} produces, which its ring hashes. */
    static String apacheKey(MessageQueue queue) {
        return "MessageQueue [topic=" + queue.topic() + ", brokerName=" + queue.brokerName() + ", queueId="
                + queue.queueId() + "]";
    }
}
