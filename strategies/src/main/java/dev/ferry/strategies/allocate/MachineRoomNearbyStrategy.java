package dev.ferry.strategies.allocate;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prefers queues in the consumer's own machine room, like RocketMQ's {@code MACHINE_ROOM_NEARBY}: the
 * inner strategy divides each room's queues among that room's consumers, and the queues of rooms
 * without a live consumer among all consumers. Rooms come from a {@link RoomResolver}.
 */
final class MachineRoomNearbyStrategy extends CheckedAllocateStrategy {

    static final String NAME = "machine-room-nearby";

    private final AllocateStrategy inner;
    private final RoomResolver rooms;

    MachineRoomNearbyStrategy(AllocateStrategy inner, RoomResolver rooms) {
        this.inner = inner;
        this.rooms = rooms;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    List<MessageQueue> allocate(String group, int clientIndex, List<MessageQueue> queues, List<String> clientIds) {
        Map<String, List<MessageQueue>> queuesByRoom = new TreeMap<>();
        for (MessageQueue queue : queues) {
            queuesByRoom.computeIfAbsent(rooms.roomOf(queue), room -> new ArrayList<>()).add(queue);
        }
        Map<String, List<String>> clientsByRoom = new TreeMap<>();
        for (String id : clientIds) {
            clientsByRoom.computeIfAbsent(rooms.roomOf(id), room -> new ArrayList<>()).add(id);
        }
        String clientId = clientIds.get(clientIndex);
        String myRoom = rooms.roomOf(clientId);
        List<MessageQueue> mine = new ArrayList<>();
        List<MessageQueue> myRoomQueues = queuesByRoom.remove(myRoom);
        if (myRoomQueues != null) {
            mine.addAll(inner.allocate(group, clientId, myRoomQueues, clientsByRoom.get(myRoom)));
        }
        queuesByRoom.forEach((room, roomQueues) -> {
            if (!clientsByRoom.containsKey(room)) {
                mine.addAll(inner.allocate(group, clientId, roomQueues, clientIds));
            }
        });
        return List.copyOf(mine);
    }
}
