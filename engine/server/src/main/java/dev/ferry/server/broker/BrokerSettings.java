package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.server.files.JsonFile;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The broker settings an operator may change while it runs (UPDATE_BROKER_CONFIG, Apache's key names): whether
 * topics are created on first send ({@code autoCreateTopicEnable}), with how many queues
 * ({@code defaultTopicQueueNums}), and the largest body taken ({@code maxMessageSize}). Changes are kept in
 * {@code config/brokerSettings.json} and win over the start-up configuration after a restart, as Apache writes them
 * back to its configuration file.
 *
 * <p>Thread-safe: readers see one consistent set.
 */
final class BrokerSettings {
    static final String AUTO_CREATE_TOPIC = "autoCreateTopicEnable";
    static final String DEFAULT_TOPIC_QUEUES = "defaultTopicQueueNums";
    static final String MAX_MESSAGE_SIZE = "maxMessageSize";

    /** One consistent set of values. */
    record Values(boolean autoCreateTopicEnable, int defaultTopicQueueNums, int maxMessageSize) {
    }

    /** The persisted form. */
    record Stored(Values values, DataVersion dataVersion) {
    }

    private final JsonFile<Stored> file;
    private final Clock clock;
    private volatile Values values;
    private volatile DataVersion version;

    BrokerSettings(Path configDir, Clock clock, BrokerConfig config) {
        this.file = new JsonFile<>(configDir.resolve("brokerSettings.json"), Stored.class);
        this.clock = clock;
        Values initial = new Values(config.autoCreateTopics(), config.defaultTopicQueues(), config.maxMessageSize());
        Optional<Stored> stored = file.read();
        this.values = stored.map(Stored::values).filter(v -> problem(v) == null).orElse(initial);
        this.version = stored.map(Stored::dataVersion).orElse(new DataVersion(0, clock.millis(), 0));
    }

    Values values() {
        return values;
    }

    DataVersion version() {
        return version;
    }

    /**
     * Applies changed keys; nothing changes unless every key is one of these and every value valid.
     *
     * @return empty when applied, else why not (naming the key)
     */
    synchronized Optional<String> update(Map<String, String> changes) {
        boolean auto = values.autoCreateTopicEnable();
        int queues = values.defaultTopicQueueNums();
        int maxSize = values.maxMessageSize();
        for (Map.Entry<String, String> change : new TreeMap<>(changes).entrySet()) {
            String value = change.getValue().trim();
            try {
                switch (change.getKey()) {
                    case AUTO_CREATE_TOPIC -> auto = parseBoolean(value);
                    case DEFAULT_TOPIC_QUEUES -> queues = Integer.parseInt(value);
                    case MAX_MESSAGE_SIZE -> maxSize = Integer.parseInt(value);
                    default -> {
                        return Optional.of("broker config " + change.getKey() + " cannot be changed while Ferry "
                                + "runs; these can: " + AUTO_CREATE_TOPIC + ", " + DEFAULT_TOPIC_QUEUES + ", "
                                + MAX_MESSAGE_SIZE);
                    }
                }
            } catch (IllegalArgumentException e) {
                return Optional.of("broker config " + change.getKey() + ": " + e.getMessage());
            }
        }
        Values next = new Values(auto, queues, maxSize);
        String problem = problem(next);
        if (problem != null) {
            return Optional.of(problem);
        }
        if (!next.equals(values)) {
            DataVersion nextVersion = version.next(clock.millis());
            file.write(new Stored(next, nextVersion));
            values = next;
            version = nextVersion;
        }
        return Optional.empty();
    }

    private static boolean parseBoolean(String value) {
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("must be true or false, not " + value);
        }
        return Boolean.parseBoolean(value);
    }

    private static String problem(Values v) {
        if (v.defaultTopicQueueNums() < 1 || v.defaultTopicQueueNums() > 1024) {
            return "broker config " + DEFAULT_TOPIC_QUEUES + " must be within 1..1024, not "
                    + v.defaultTopicQueueNums();
        }
        if (v.maxMessageSize() < 1) {
            return "broker config " + MAX_MESSAGE_SIZE + " must be positive, not " + v.maxMessageSize();
        }
        return null;
    }

    /** The values by Apache's names. */
    Map<String, String> asProperties() {
        Values v = values;
        return Map.of(AUTO_CREATE_TOPIC, String.valueOf(v.autoCreateTopicEnable()), DEFAULT_TOPIC_QUEUES,
                String.valueOf(v.defaultTopicQueueNums()), MAX_MESSAGE_SIZE, String.valueOf(v.maxMessageSize()));
    }
}
