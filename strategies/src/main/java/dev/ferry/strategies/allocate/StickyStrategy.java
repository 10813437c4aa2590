package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Balanced within one queue, like {@code averagely}, but on a membership change moves as few queues as
 * possible ({@link StickyAssignment}), so fewer process queues are dropped, fewer orderly locks change
 * hands and fewer messages are consumed twice.
 *
 * <p>Every member computes the whole group's assignment and remembers it per (group, topic) in this
 * instance (one instance per consumer). Members therefore agree as long as they have seen the same
 * sequence of memberships, which holds when they start together and rebalance on every change. A
 * member started later begins from the {@code averagely} layout; until the group restarts together it
 * may disagree with older members, so prefer this strategy for groups whose members start and stop
 * together (RocketMQ's rebalance tolerates short overlaps, not lasting ones).
 */
final class StickyStrategy extends CheckedAllocateStrategy {

    static final String NAME = "sticky";

    /** Previous owners, keyed by group and topic; written by the consumer's rebalance thread. */
    private final Map<String, Map<MessageQueue, String>> previousOwners = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        String key = group + '\u0000' + String.join("\u0000", queues.stream().map(MessageQueue::topic).distinct().toList());
        Map<MessageQueue, String> owners = StickyAssignment.next(previousOwners.getOrDefault(key, Map.of()), queues,
                clientIds);
        previousOwners.put(key, owners);
        String clientId = clientIds.get(clientIndex);
        return queues.stream().filter(queue -> clientId.equals(owners.get(queue))).toList();
    }
}
