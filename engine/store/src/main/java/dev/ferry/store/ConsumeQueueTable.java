package dev.ferry.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Every {@link ConsumeQueue}, at {@code consumequeue/<topic>/<queueId>/}. Queues are created by the dispatcher thread;
 * lookups from any thread.
 */
final class ConsumeQueueTable {
    private final Path root;
    private final int entriesPerSegment;
    private final Clock clock;
    private final Map<QueueKey, ConsumeQueue> queues = new ConcurrentHashMap<>();

    ConsumeQueueTable(Path root, int entriesPerSegment, Clock clock) {
        this.root = root;
        this.entriesPerSegment = entriesPerSegment;
        this.clock = clock;
    }

    /** Loads every queue directory found. */
    void load() {
        try {
            DurableDirectories.create(root);
            try (Stream<Path> topics = Files.list(root)) {
                for (Path topicDir : topics.filter(Files::isDirectory).toList()) {
                    loadTopic(topicDir);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load consume queues in " + root, e);
        }
    }

    private void loadTopic(Path topicDir) throws IOException {
        try (Stream<Path> ids = Files.list(topicDir)) {
            for (Path queueDir : ids.filter(Files::isDirectory).toList()) {
                String name = queueDir.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
                    QueueKey key = new QueueKey(topicDir.getFileName().toString(), Integer.parseInt(name));
                    ConsumeQueue queue = new ConsumeQueue(key, queueDir, entriesPerSegment, clock);
                    queue.load();
                    queues.put(key, queue);
                }
            }
        }
    }

    Optional<ConsumeQueue> find(String topic, int queueId) {
        return Optional.ofNullable(queues.get(new QueueKey(topic, queueId)));
    }

    ConsumeQueue findOrCreate(String topic, int queueId) {
        return queues.computeIfAbsent(new QueueKey(topic, queueId), key -> new ConsumeQueue(key,
            root.resolve(key.topic()).resolve(Integer.toString(key.queueId())), entriesPerSegment, clock));
    }

    /** Every queue's next offset: what the commit log continues from after recovery. */
    Map<QueueKey, Long> maxOffsets() {
        Map<QueueKey, Long> offsets = new HashMap<>();
        queues.forEach((key, queue) -> offsets.put(key, queue.maxOffset()));
        return offsets;
    }

    void flush() {
        queues.values().forEach(ConsumeQueue::flush);
    }

    void truncateBeyond(long validEndOffset) {
        queues.values().forEach(queue -> queue.truncateBeyond(validEndOffset));
    }

    void advanceMinOffset(long minPhysicalOffset) {
        queues.values().forEach(queue -> queue.advanceMinOffset(minPhysicalOffset));
    }
}
