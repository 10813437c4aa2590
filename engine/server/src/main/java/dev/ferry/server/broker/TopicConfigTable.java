package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The topics this broker serves, persisted as JSON and versioned so name servers see changes.
 *
 * <p>Thread-safe. A topic is created on first send when auto-creation is on, on a consumer
 * group's first heartbeat for its retry topic, and at start for the broker's own topics.
 */
final class TopicConfigTable {
    private static final System.Logger LOG = System.getLogger(TopicConfigTable.class.getName());

    /** The persisted form. */
    record Stored(Map<String, TopicConfig> topicConfigTable, DataVersion dataVersion) {
    }

    private final Map<String, TopicConfig> topics = new ConcurrentHashMap<>();
    private final JsonFile<Stored> file;
    private final Clock clock;
    private volatile DataVersion version;

    TopicConfigTable(Path configDir, Clock clock) {
        this.file = new JsonFile<>(configDir.resolve("topics.json"), Stored.class);
        this.clock = clock;
        this.version = new DataVersion(0, clock.millis(), 0);
        file.read().ifPresent(stored -> {
            if (stored.topicConfigTable() != null) {
                topics.putAll(stored.topicConfigTable());
            }
            if (stored.dataVersion() != null) {
                version = stored.dataVersion();
            }
        });
        putIfAbsent(new TopicConfig(TopicNames.AUTO_CREATE_TOPIC, 8, 8,
                Permission.READ | Permission.WRITE | Permission.INHERIT, null, 0, false, Map.of()));
    }

    Optional<TopicConfig> get(String topic) {
        return Optional.ofNullable(topics.get(topic));
    }

    /** Adds the topic unless it exists; returns the topic as it now is. */
    TopicConfig putIfAbsent(TopicConfig config) {
        TopicConfig existing = topics.putIfAbsent(config.topicName(), config);
        if (existing != null) {
            return existing;
        }
        synchronized (this) {
            version = version.next(clock.millis());
            persist();
        }
        LOG.log(System.Logger.Level.INFO, "created topic {0} with {1} queues", config.topicName(),
                config.writeQueueNums());
        return config;
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
}
