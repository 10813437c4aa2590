package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.server.files.JsonFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The topics this broker serves, persisted as JSON and versioned so name servers see changes.
 *
 * <p>Thread-safe. A topic is created on first send when auto-creation is on, on a consumer group's first heartbeat
 * for its retry topic, and at start for the broker's own topics; never beyond {@link BrokerLimits#maxTopics()}, and
 * never with an invalid name (a file holding one is read without it).
 *
 * <p>Creations are written by {@link #persistIfChanged()}, which the broker runs every few hundred milliseconds and
 * at shutdown, so that a storm of new topics costs one write per round instead of one whole-table write per topic.
 * A crash may lose the last round's topics from the file, never their messages: at start the broker takes back every
 * topic its store holds queues of ({@link #restoreFromStore}).
 */
final class TopicConfigTable {
    private static final System.Logger LOG = System.getLogger(TopicConfigTable.class.getName());

    /** The persisted form. */
    record Stored(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion) {
    }

    private final Map<String, TopicConfig> topics = new ConcurrentHashMap<>();
    private final JsonFile<Stored> file;
    private final Clock clock;
    private final int maxTopics;
    private volatile DataVersion version;
    private volatile boolean fullLogged;
    private final UnsavedChanges unsaved = new UnsavedChanges();

    TopicConfigTable(Path configDir, Clock clock, int maxTopics) {
        this.file = new JsonFile<>(configDir.resolve("topics.json"), Stored.class);
        this.clock = clock;
        this.maxTopics = maxTopics;
        this.version = new DataVersion(0, clock.millis(), 0);
        file.read().ifPresent(this::load);
        topics.putIfAbsent(SystemTopics.AUTO_CREATE_TOPIC, new TopicConfig(SystemTopics.AUTO_CREATE_TOPIC, 8, 8,
                Permission.READ | Permission.WRITE | Permission.INHERIT, null, 0, false, Map.of()));
    }

    private void load(Stored stored) {
        topics.putAll(valid(stored));
        if (stored.dataVersion() != null) {
            version = stored.dataVersion();
        }
    }

    /** The master's topics in place of these (a slave's copy); topics not in them are dropped. */
    synchronized void replaceWith(Stored master) {
        Map<String, TopicConfig> valid = valid(master);
        topics.keySet().retainAll(valid.keySet());
        topics.putAll(valid);
        if (master.dataVersion() != null) {
            version = master.dataVersion();
        }
        unsaved.record();
    }

    private static Map<String, TopicConfig> valid(Stored stored) {
        Map<String, TopicConfig> valid = new HashMap<>();
        if (stored.topicConfigTable() != null) {
            stored.topicConfigTable().forEach((name, config) -> {
                String problem = NameRules.topicProblem(name);
                if (problem == null) {
                    problem = configProblem(name, config);
                }
                if (problem == null) {
                    valid.put(name, config);
                } else {
                    LOG.log(System.Logger.Level.WARNING, "ignoring topic {0} of topics.json or its master: {1}",
                            NameRules.shown(name), problem);
                }
            });
        }
        return valid;
    }

    /** The most queues a topic may have: clients build one object per queue of a route. */
    static final int MAX_QUEUES = 65_535;

    private static String configProblem(String name, TopicConfig config) {
        if (config == null || !name.equals(config.topicName())) {
            return "its config names another topic";
        }
        if (config.readQueueNums() < 0 || config.readQueueNums() > MAX_QUEUES || config.writeQueueNums() < 0
                || config.writeQueueNums() > MAX_QUEUES) {
            return "queue counts " + config.readQueueNums() + "/" + config.writeQueueNums() + " outside 0.."
                    + MAX_QUEUES;
        }
        if ((config.perm() & ~7) != 0) {
            return "permission " + config.perm() + " outside 0..7";
        }
        return null;
    }

    Optional<TopicConfig> get(String topic) {
        return Optional.ofNullable(topics.get(topic));
    }

    boolean contains(String topic) {
        return topics.containsKey(topic);
    }

    /**
     * Adds the topic unless it exists; returns the topic as it now is.
     *
     * @return empty when the name is invalid or the broker already serves {@code maxTopics} topics
     */
    Optional<TopicConfig> putIfAbsent(TopicConfig config) {
        TopicConfig existing = topics.get(config.topicName());
        if (existing != null) {
            return Optional.of(existing);
        }
        if (NameRules.topicProblem(config.topicName()) != null) {
            return Optional.empty();
        }
        synchronized (this) {
            existing = topics.get(config.topicName());
            if (existing != null) {
                return Optional.of(existing);
            }
            if (topics.size() >= maxTopics) {
                if (!fullLogged) {
                    fullLogged = true;
                    LOG.log(System.Logger.Level.WARNING, "the broker serves {0} topics, its maximum (maxTopics); "
                            + "refusing to create more, such as {1}", maxTopics, config.topicName());
                }
                return Optional.empty();
            }
            topics.put(config.topicName(), config);
            version = version.next(clock.millis());
            unsaved.record();
        }
        LOG.log(System.Logger.Level.INFO, "created topic {0} with {1} queues", config.topicName(),
                config.writeQueueNums());
        return Optional.of(config);
    }

    /**
     * Creates or replaces a topic's settings, as UPDATE_AND_CREATE_TOPIC asks; written at once.
     *
     * @return empty when applied, else why not
     */
    synchronized Optional<String> put(TopicConfig config) {
        String problem = NameRules.topicProblem(config.topicName());
        if (problem == null) {
            problem = configProblem(config.topicName(), config);
        }
        if (problem != null) {
            return Optional.of(problem);
        }
        if (!topics.containsKey(config.topicName()) && topics.size() >= maxTopics) {
            return Optional.of(refusal(config.topicName()));
        }
        TopicConfig previous = topics.put(config.topicName(), config);
        if (!config.equals(previous)) {
            version = version.next(clock.millis());
            persist();
            LOG.log(System.Logger.Level.INFO, "topic {0} set: {1} read and {2} write queues, permission {3}",
                    config.topicName(), config.readQueueNums(), config.writeQueueNums(), config.perm());
        }
        return Optional.empty();
    }

    /** Forgets a topic (DELETE_TOPIC_IN_BROKER); returns whether it was served. Written at once. */
    synchronized boolean remove(String topic) {
        if (topics.remove(topic) == null) {
            return false;
        }
        version = version.next(clock.millis());
        persist();
        LOG.log(System.Logger.Level.INFO, "topic {0} deleted", topic);
        return true;
    }

    /** Why a topic could not be created: its name, or a full table. */
    String refusal(String topic) {
        String problem = NameRules.topicProblem(topic);
        return problem != null ? problem : "the broker already serves " + maxTopics + " topics, its maximum; "
                + "topic " + topic + " is not created";
    }

    /**
     * Takes back topics whose queues the store holds but the file lost (a crash before the last write): each with as
     * many queues as its highest queue id says, one for a retry or dead-letter topic. Returns how many.
     */
    int restoreFromStore(Map<String, Integer> queuesInStore) {
        int restored = 0;
        for (Map.Entry<String, Integer> topic : queuesInStore.entrySet()) {
            if (!topics.containsKey(topic.getKey()) && restorable(topic.getKey())
                    && topic.getValue() <= MAX_QUEUES
                    && putIfAbsent(TopicConfig.of(topic.getKey(), topic.getValue())).isPresent()) {
                restored++;
            }
        }
        if (restored > 0) {
            LOG.log(System.Logger.Level.WARNING, "took back {0} topics whose queues the store holds but topics.json "
                    + "lacked", restored);
        }
        return restored;
    }

    /**
     * Gives the two transaction topics a config (one queue, read and write) unless they have one, as Apache's broker
     * does with the first half message, so that tools and recovering transaction managers can read them.
     *
     * @return whether one was created
     */
    boolean ensureTransactionTopics() {
        boolean created = false;
        for (String topic : List.of(SystemTopics.TRANSACTION_HALF_TOPIC, SystemTopics.TRANSACTION_OP_TOPIC)) {
            if (!topics.containsKey(topic) && putIfAbsent(TopicConfig.of(topic, 1)).isPresent()) {
                created = true;
            }
        }
        return created;
    }

    /**
     * Gives the trace topic a config (one queue, read and write) unless it has one, as Apache's broker does at start
     * with traceTopicEnable, so that clients' traces have a route without auto-creation.
     */
    void ensureTraceTopic(String topic) {
        if (!topics.containsKey(topic)) {
            putIfAbsent(TopicConfig.of(topic, 1));
        }
    }

    /**
     * Every topic but the broker's own, whose configs it makes itself; the transaction topics are taken back too, as a
     * recovering transaction manager reads them.
     */
    private static boolean restorable(String topic) {
        return !SystemTopics.isBrokerOnly(topic) || topic.equals(SystemTopics.TRANSACTION_HALF_TOPIC)
                || topic.equals(SystemTopics.TRANSACTION_OP_TOPIC);
    }

    /** Writes the table if it changed since the last write. */
    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    synchronized void persist() {
        file.write(new Stored(Map.copyOf(topics), version));
    }

    /** The topics and their version, as registered with name servers. */
    TopicConfigSerializeWrapper snapshot() {
        return new TopicConfigSerializeWrapper(Map.copyOf(topics), version);
    }

    Map<String, TopicConfig> all() {
        return Map.copyOf(topics);
    }

    int size() {
        return topics.size();
    }
}
