package dev.ferry.strategies.offset;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The in-memory offset table both built-in stores share; subclasses say how offsets reach durable
 * storage. Thread-safe: the table is a concurrent map and every update is one atomic map operation.
 */
abstract class TableBackedOffsetStore implements OffsetStore {

    /** Next offset to consume, per queue. */
    final ConcurrentMap<MessageQueue, Long> table = new ConcurrentHashMap<>();

    @Override
    public void update(MessageQueue queue, long nextOffset, boolean increaseOnly) {
        Objects.requireNonNull(queue, "queue");
        table.merge(queue, nextOffset, (current, offered) -> increaseOnly ? Math.max(current, offered) : offered);
    }

    @Override
    public long read(MessageQueue queue, ReadOffsetType type) {
        if (type != ReadOffsetType.READ_FROM_STORE) {
            Long inMemory = table.get(queue);
            if (inMemory != null || type == ReadOffsetType.READ_FROM_MEMORY) {
                return inMemory != null ? inMemory : NO_OFFSET;
            }
        }
        long stored = readFromStore(queue);
        if (stored >= 0) {
            update(queue, stored, false);
        }
        return stored;
    }

    @Override
    public void remove(MessageQueue queue) {
        table.remove(queue);
    }

    @Override
    public Map<MessageQueue, Long> offsets(String topic) {
        Map<MessageQueue, Long> copy = new TreeMap<>();
        table.forEach((queue, offset) -> {
            if (queue.topic().equals(topic)) {
                copy.put(queue, offset);
            }
        });
        return copy;
    }

    /**
     * @param queue the queue
     * @return the durable offset, {@link #NO_OFFSET} or {@link #READ_FAILED}
     */
    abstract long readFromStore(MessageQueue queue);
}
