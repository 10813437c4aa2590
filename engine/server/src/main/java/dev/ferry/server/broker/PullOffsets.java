package dev.ferry.server.broker;

import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How far each group has pulled each queue (the next offset its last pull that found messages returned): what lies
 * between a group's committed offset and this is in flight at its clients. Kept in memory only, for statistics and
 * metrics; at most {@code maxEntries} queues, beyond which new queues are not tracked (their in-flight count reads 0).
 *
 * <p>Thread-safe; one map update per pull.
 */
final class PullOffsets {
    private final Map<String, Map<Integer, Long>> offsets = new ConcurrentHashMap<>();
    private final AtomicInteger entries = new AtomicInteger();
    private final int maxEntries;

    PullOffsets(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    void pulled(String group, String topic, int queueId, long nextOffset) {
        String key = topic + "@" + group;
        Map<Integer, Long> queues = offsets.get(key);
        if (queues == null) {
            if (entries.get() >= maxEntries) {
                return;
            }
            queues = offsets.computeIfAbsent(key, k -> new ConcurrentHashMap<>());
        }
        if (queues.put(queueId, nextOffset) == null && entries.incrementAndGet() > maxEntries) {
            queues.remove(queueId);
            entries.decrementAndGet();
        }
    }

    OptionalLong pulledUpTo(String group, String topic, int queueId) {
        Map<Integer, Long> queues = offsets.get(topic + "@" + group);
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** Queues tracked now, over all groups and topics. */
    int size() {
        return entries.get();
    }

    /** Forgets a deleted topic's or group's entries. */
    void forget(java.util.function.Predicate<String> topicAtGroup) {
        for (String key : java.util.Set.copyOf(offsets.keySet())) {
            if (topicAtGroup.test(key)) {
                Map<Integer, Long> queues = offsets.remove(key);
                if (queues != null) {
                    entries.addAndGet(-queues.size());
                }
            }
        }
    }
}
