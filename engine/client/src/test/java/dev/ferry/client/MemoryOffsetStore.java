package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

/** Offsets in memory, with a "durable" copy that persist writes, and every persist recorded. */
final class MemoryOffsetStore implements OffsetStore {
    final Map<MessageQueue, Long> memory = new ConcurrentHashMap<>();
    final Map<MessageQueue, Long> durable = new ConcurrentHashMap<>();
    final List<MessageQueue> persisted = new CopyOnWriteArrayList<>();
    volatile Runnable beforeEachCall = () -> { };

    @Override
    public void load() {
    }

    @Override
    public void update(MessageQueue queue, long nextOffset, boolean increaseOnly) {
        memory.merge(queue, nextOffset, (old, next) -> increaseOnly ? Math.max(old, next) : next);
    }

    @Override
    public long read(MessageQueue queue, ReadOffsetType type) {
        if (type != ReadOffsetType.READ_FROM_MEMORY) {
            beforeEachCall.run(); // the store may be a broker's: a call over the network
        }
        Map<MessageQueue, Long> from = type == ReadOffsetType.READ_FROM_MEMORY ? memory : durable;
        return from.getOrDefault(queue, NO_OFFSET);
    }

    @Override
    public void persist(MessageQueue queue) {
        beforeEachCall.run();
        Long offset = memory.get(queue);
        if (offset != null) {
            durable.put(queue, offset);
        }
        persisted.add(queue);
    }

    @Override
    public void persistAll(Set<MessageQueue> assigned) {
        assigned.forEach(this::persist);
    }

    @Override
    public void remove(MessageQueue queue) {
        memory.remove(queue);
    }

    @Override
    public Map<MessageQueue, Long> offsets(String topic) {
        return memory.entrySet().stream().filter(e -> e.getKey().topic().equals(topic))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
