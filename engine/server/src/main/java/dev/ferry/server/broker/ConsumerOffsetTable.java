package dev.ferry.server.broker;

import dev.ferry.format.NameRules;
import dev.ferry.remoting.protocol.BadRequestException;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.server.files.JsonFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Committed consumer offsets by topic, group and queue: the next offset each group will read. Persisted as
 * {@code consumerOffset.json} ({@code {"offsetTable":{"topic@group":{"0":5}}}}, RocketMQ's layout) periodically and at
 * shutdown.
 *
 * <p>An offset is kept only for a group the broker knows, a topic it serves and a queue the topic has, never negative,
 * and at most {@link BrokerLimits#maxConsumerOffsets()} of them: a commit outside those bounds is refused with the
 * code Apache's broker gives (SUBSCRIPTION_GROUP_NOT_EXIST, TOPIC_NOT_EXIST) or INVALID_PARAMETER.
 *
 * <p>Thread-safe; updates are cheap map writes, persistence copies the table.
 */
final class ConsumerOffsetTable {
    private static final System.Logger LOG = System.getLogger(ConsumerOffsetTable.class.getName());

    /** The persisted form. */
    record Stored(Map<String, Map<Integer, Long>> offsetTable) {
    }

    private final Map<String, Map<Integer, Long>> offsets = new ConcurrentHashMap<>();
    private final JsonFile<Stored> file;
    private final int maxEntries;
    private final AtomicInteger entries = new AtomicInteger();
    private final UnsavedChanges unsaved = new UnsavedChanges();
    private volatile boolean fullLogged;

    ConsumerOffsetTable(Path configDir, int maxEntries) {
        this.file = new JsonFile<>(configDir.resolve("consumerOffset.json"), Stored.class);
        this.maxEntries = maxEntries;
        file.read().ifPresent(this::load);
    }

    private void load(Stored stored) {
        Map<String, Map<Integer, Long>> valid = valid(stored);
        offsets.putAll(valid);
        valid.values().forEach(queues -> entries.addAndGet(queues.size()));
    }

    /** The master's offsets in place of these (a slave's copy); what is not in them is dropped. */
    synchronized void replaceWith(Stored master) {
        Map<String, Map<Integer, Long>> valid = valid(master);
        offsets.keySet().retainAll(valid.keySet());
        offsets.putAll(valid);
        entries.set(offsets.values().stream().mapToInt(Map::size).sum());
        unsaved.record();
    }

    /** This table as RocketMQ writes it, for a slave. */
    Stored snapshot() {
        Map<String, Map<Integer, Long>> copy = new HashMap<>();
        offsets.forEach((key, queues) -> copy.put(key, new HashMap<>(queues)));
        return new Stored(copy);
    }

    private static Map<String, Map<Integer, Long>> valid(Stored stored) {
        Map<String, Map<Integer, Long>> all = new HashMap<>();
        if (stored.offsetTable() == null) {
            return all;
        }
        stored.offsetTable().forEach((key, queues) -> {
            int at = key.indexOf('@');
            if (at < 0 || queues == null || NameRules.topicProblem(key.substring(0, at)) != null
                    || NameRules.groupProblem(key.substring(at + 1)) != null) {
                LOG.log(System.Logger.Level.WARNING, "ignoring offsets of {0} in consumerOffset.json: not a topic "
                        + "and a group", NameRules.shown(key));
                return;
            }
            Map<Integer, Long> valid = new ConcurrentHashMap<>();
            queues.forEach((queueId, offset) -> {
                if (queueId != null && queueId >= 0 && offset != null && offset >= 0) {
                    valid.put(queueId, offset);
                }
            });
            all.put(key, valid);
        });
        return all;
    }

    private static String key(String topic, String group) {
        return topic + "@" + group;
    }

    OptionalLong query(String group, String topic, int queueId) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        Long offset = queues == null ? null : queues.get(queueId);
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /**
     * Commits a group's offset on a queue.
     *
     * @throws BadRequestException when the group, topic, queue or offset is not one the broker keeps
     */
    void commit(SubscriptionGroupTable groups, TopicConfigTable topics, String group, String topic, int queueId,
                long offset) {
        if (!groups.contains(group)) {
            throw new BadRequestException(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "Group "
                    + NameRules.shown(group) + " not exist!");
        }
        TopicConfig config = topics.get(topic).orElseThrow(() -> new BadRequestException(
                ResponseCode.TOPIC_NOT_EXIST, "Topic " + NameRules.shown(topic) + " not exist!"));
        EntryChecks.queueId("queueId", queueId, Math.max(config.readQueueNums(), config.writeQueueNums()), topic);
        if (offset < 0) {
            throw new BadRequestException(ResponseCode.INVALID_PARAMETER, "commitOffset " + offset
                    + " is negative");
        }
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        if (queues == null || !queues.containsKey(queueId)) {
            if (entries.get() >= maxEntries) {
                if (!fullLogged) {
                    fullLogged = true;
                    LOG.log(System.Logger.Level.WARNING, "the broker keeps {0} committed offsets, its maximum "
                            + "(maxConsumerOffsets): commits for new queues are refused, and their consumers start "
                            + "where their consume-from-where setting says after a restart", maxEntries);
                }
                throw new BadRequestException(ResponseCode.SYSTEM_ERROR, "the broker keeps " + maxEntries
                        + " committed offsets, its maximum (maxConsumerOffsets); not keeping one for group "
                        + group + " on " + topic + ":" + queueId);
            }
            queues = offsets.computeIfAbsent(key(topic, group), k -> new ConcurrentHashMap<>());
        }
        if (queues.put(queueId, offset) == null) {
            entries.incrementAndGet();
        }
        unsaved.record();
    }

    /** The groups with any committed offset. */
    Set<String> groups() {
        Set<String> groups = new TreeSet<>();
        for (String key : offsets.keySet()) {
            groups.add(key.substring(key.indexOf('@') + 1));
        }
        return groups;
    }

    /** The topics {@code group} has committed offsets on. */
    Set<String> topicsOf(String group) {
        Set<String> topics = new TreeSet<>();
        String suffix = "@" + group;
        for (String key : offsets.keySet()) {
            if (key.endsWith(suffix)) {
                topics.add(key.substring(0, key.length() - suffix.length()));
            }
        }
        return topics;
    }

    /** The groups with committed offsets on {@code topic}. */
    Set<String> groupsOn(String topic) {
        Set<String> groups = new TreeSet<>();
        String prefix = topic + "@";
        for (String key : offsets.keySet()) {
            if (key.startsWith(prefix)) {
                groups.add(key.substring(prefix.length()));
            }
        }
        return groups;
    }

    /** A group's committed offsets on a topic, by queue id. */
    Map<Integer, Long> offsetsOf(String group, String topic) {
        Map<Integer, Long> queues = offsets.get(key(topic, group));
        return queues == null ? Map.of() : Map.copyOf(queues);
    }

    /** Forgets every group's offsets on a deleted topic; returns how many were dropped. */
    int removeTopic(String topic) {
        return removeKeys(key -> key.startsWith(topic + "@"));
    }

    /** Forgets a deleted group's offsets on every topic; returns how many were dropped. */
    int removeGroup(String group) {
        return removeKeys(key -> key.endsWith("@" + group));
    }

    private int removeKeys(java.util.function.Predicate<String> matching) {
        int removed = 0;
        for (String key : Set.copyOf(offsets.keySet())) {
            if (matching.test(key)) {
                Map<Integer, Long> queues = offsets.remove(key);
                if (queues != null) {
                    removed += queues.size();
                }
            }
        }
        if (removed > 0) {
            entries.addAndGet(-removed);
            unsaved.record();
        }
        return removed;
    }

    int size() {
        return entries.get();
    }

    /** Writes the table if it changed since the last write. */
    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    void persist() {
        file.write(snapshot());
    }
}
