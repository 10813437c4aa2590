package dev.ferry.store;

import dev.ferry.format.Clock;
import dev.ferry.format.DurableDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Every {@link ConsumeQueue}, at {@code consumequeue/<topic>/<queueId>/} ({@link QueueDirectories}). Queues are created
 * by the dispatcher thread; lookups from any thread. A directory that cannot be loaded is logged and left alone, so
 * that one damaged queue never stops the store from opening; its queue then fails on its first write, which the
 * {@link Dispatcher} isolates.
 */
final class ConsumeQueueTable {
    private static final System.Logger LOG = System.getLogger(ConsumeQueueTable.class.getName());

    private final QueueDirectories directories;
    private final int entriesPerSegment;
    private final Clock clock;
    private final Map<QueueKey, ConsumeQueue> queues = new ConcurrentHashMap<>();

    ConsumeQueueTable(Path root, int entriesPerSegment, Clock clock) {
        this.directories = new QueueDirectories(root);
        this.entriesPerSegment = entriesPerSegment;
        this.clock = clock;
    }

    /** Loads every queue directory found. */
    void load() {
        Path root = directories.root();
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

    private void loadTopic(Path topicDir) {
        Optional<String> topic;
        List<Path> queueDirs;
        try (Stream<Path> ids = Files.list(topicDir)) {
            topic = directories.topicOf(topicDir);
            queueDirs = ids.filter(Files::isDirectory).toList();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "cannot load the consume queues in {0}; skipping them: {1}", topicDir,
                e.toString());
            return;
        }
        if (topic.isEmpty()) {
            LOG.log(System.Logger.Level.ERROR, "{0} does not name its topic; skipping its consume queues", topicDir);
            return;
        }
        for (Path queueDir : queueDirs) {
            String name = queueDir.getFileName().toString();
            if (name.isEmpty() || name.length() > 10 || !name.chars().allMatch(Character::isDigit)) {
                continue;
            }
            try {
                QueueKey key = new QueueKey(topic.get(), Integer.parseInt(name));
                ConsumeQueue queue = new ConsumeQueue(key, queueDir, entriesPerSegment, clock);
                queue.load();
                queues.put(key, queue);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "cannot load the consume queue in {0}; skipping it: {1}",
                    queueDir, e.toString());
            }
        }
    }

    Optional<ConsumeQueue> find(String topic, int queueId) {
        return Optional.ofNullable(queues.get(new QueueKey(topic, queueId)));
    }

    ConsumeQueue findOrCreate(String topic, int queueId) {
        return queues.computeIfAbsent(new QueueKey(topic, queueId), key -> new ConsumeQueue(key,
            directories.topicDirectory(key.topic()).resolve(Integer.toString(key.queueId())), entriesPerSegment,
            clock));
    }

    /** Every queue's next offset: what the commit log continues from after recovery. */
    Map<QueueKey, Long> nextOffsets() {
        Map<QueueKey, Long> offsets = new HashMap<>();
        queues.forEach((key, queue) -> offsets.put(key, queue.nextOffset()));
        return offsets;
    }

    /**
     * Drops every queue of a deleted topic and deletes its directory; on the dispatcher's thread, so no write races
     * it. Readers holding a queue read on from its mappings, which stay valid until collected. Returns how many queues.
     */
    int removeTopic(String topic) {
        int removed = 0;
        for (QueueKey key : List.copyOf(queues.keySet())) {
            if (key.topic().equals(topic)) {
                ConsumeQueue queue = queues.remove(key);
                if (queue != null) {
                    queue.destroy();
                    removed++;
                }
            }
        }
        Path dir = directories.topicDirectory(topic);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path path : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot delete the consume queues of " + topic + " in " + dir, e);
            }
        }
        return removed;
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
