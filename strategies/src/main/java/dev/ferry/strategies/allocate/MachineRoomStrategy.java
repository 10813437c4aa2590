package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads only queues of brokers named {@code <idc>@<name>} whose idc is one of the consumer's, shared in
 * pages, like RocketMQ's {@code MACHINE_ROOM}: each client takes a block of {@code n / c} queues, and the
 * first {@code n % c} clients one more from the tail. Brokers without exactly one {@code @} are never read.
 */
final class MachineRoomStrategy extends CheckedAllocateStrategy {

    static final String NAME = "machine-room";

    private final Set<String> consumerIdcs;

    MachineRoomStrategy(Set<String> consumerIdcs) {
        this.consumerIdcs = Set.copyOf(consumerIdcs);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        List<MessageQueue> inRooms = queues.stream().filter(this::inConsumerIdc).toList();
        int clientCount = clientIds.size();
        int blockSize = inRooms.size() / clientCount;
        int start = blockSize * clientIndex;
        List<MessageQueue> mine = new ArrayList<>(inRooms.subList(start, start + blockSize));
        if (clientIndex < inRooms.size() % clientCount) {
            mine.add(inRooms.get(clientIndex + blockSize * clientCount));
        }
        return List.copyOf(mine);
    }

    private boolean inConsumerIdc(MessageQueue queue) {
        // String.split drops trailing empty parts: "idc@" is not a room broker, "@name" has idc "".
        String[] parts = queue.brokerName().split("@");
        return parts.length == 2 && consumerIdcs.contains(parts[0]);
    }
}
