package dev.ferry.strategies.offset;

import dev.ferry.api.MessageQueue;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Keeps a broadcasting consumer's offsets in a local {@link OffsetFile}: each consumer of a broadcasting
 * group reads every queue, so its progress is its own and the broker does not keep it.
 *
 * <p>Persisting writes the last persisted offsets overlaid with the persisted queues' current ones, so
 * queues that are not assigned at the moment keep their offsets in the file. Writes are serialised.
 */
final class LocalFileOffsetStore extends TableBackedOffsetStore {

    private static final System.Logger LOG = System.getLogger(LocalFileOffsetStore.class.getName());

    private final OffsetFile file;
    /** What the file holds, as far as this store knows; guarded by {@code this}. */
    private final Map<MessageQueue, Long> persisted = new HashMap<>();

    LocalFileOffsetStore(OffsetFile file) {
        this.file = file;
    }

    @Override
    public synchronized void load() {
        Map<MessageQueue, Long> stored = file.read();
        persisted.clear();
        persisted.putAll(stored);
        stored.forEach((queue, offset) -> update(queue, offset, false));
    }

    @Override
    synchronized long readFromStore(MessageQueue queue) {
        return persisted.getOrDefault(queue, NO_OFFSET);
    }

    @Override
    public void persist(MessageQueue queue) {
        persistAll(Set.of(queue));
    }

    @Override
    public synchronized void persistAll(Set<MessageQueue> assigned) {
        Map<MessageQueue, Long> next = new HashMap<>(persisted);
        assigned.forEach(queue -> {
            Long offset = table.get(queue);
            if (offset != null) {
                next.put(queue, offset);
            }
        });
        if (next.equals(persisted)) {
            return;
        }
        try {
            file.write(next);
            persisted.clear();
            persisted.putAll(next);
        } catch (IOException e) {
            LOG.log(Level.WARNING, "Could not write offsets; the next persist retries", e);
        }
    }
}
