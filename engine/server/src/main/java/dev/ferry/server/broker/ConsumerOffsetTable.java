package dev.ferry.server.broker;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Committed consumer offsets by topic, group and queue: the next offset each group will read.
 * Persisted as {@code consumerOffset.json} ({@code {"offsetTable":{"topic@group":{"0":5}}}},
 * RocketMQ's layout) periodically and at shutdown.
 *
 * <p>Thread-safe; updates are cheap map writes, persistence copies the table.
 */
final class ConsumerOffsetTable {
    /** The persisted form. */
    record Stored(Map<String, Map<Integer, Long>> offsetTable) {
    }

    private final Map<String, Map<Integer, Long>> offsets = new ConcurrentHashMap<>();
    private final JsonFile<Stored> file;
    private final AtomicBoolean dirty = new AtomicBoolean();

    ConsumerOffsetTable(Path configDir) {
        this.file = new JsonFile<>(configDir.resolve("consumerOffset.json"), Stored.class);
        file.read().ifPresent(stored -> {
            if (stored.offsetTable() != null) {
                stored.offsetTable().forEach((key, queues) -> offsets.put(key, new ConcurrentHashMap<>(queues)));
            }
        });
    }

    private static String key(String topic, String group) {
        return topic + "@" + group;
    }

    OptionalLong query(String group, String topic, int queueId) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    void commit(String group, String topic, int queueId, long offset) {
        offsets.computeIfAbsent(key(topic, group), k -> new ConcurrentHashMap<>()).put(queueId, offset);
        dirty.set(true);
    }

    /** The groups with offsets on {@code topic}. */
    java.util.Set<String> groupsOf(String topic) {
        java.util.Set<String> groups = new java.util.TreeSet<>();
        String prefix = topic + "@";
        for (String key : offsets.keySet()) {
            if (key.startsWith(prefix)) {
                groups.add(key.substring(prefix.length()));
            }
        }
        return groups;
    }

    /** The groups with any committed offset. */
    java.util.Set<String> groups() {
        java.util.Set<String> groups = new java.util.TreeSet<>();
        for (String key : offsets.keySet()) {
            groups.add(key.substring(key.lastIndexOf('@') + 1));
        }
        return groups;
    }

    /** The topics {@code group} has committed offsets on. */
    java.util.Set<String> topicsOf(String group) {
        java.util.Set<String> topics = new java.util.TreeSet<>();
        String suffix = "@" + group;
        for (String key : offsets.keySet()) {
            if (key.endsWith(suffix)) {
                topics.add(key.substring(0, key.length() - suffix.length()));
            }
        }
        return topics;
    }

    /** Writes the table if it changed since the last write. */
    void persistIfChanged() {
        if (dirty.getAndSet(false)) {
            persist();
        }
    }

    void persist() {
        Map<String, Map<Integer, Long>> copy = new HashMap<>();
        offsets.forEach((key, queues) -> copy.put(key, new HashMap<>(queues)));
        file.write(new Stored(copy));
    }
}
