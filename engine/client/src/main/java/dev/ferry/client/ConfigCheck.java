package dev.ferry.client;

import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import java.time.Duration;
import java.util.Optional;

/** Validation of configuration values, with messages that name the bad key and value. */
final class ConfigCheck {
    private ConfigCheck() {
    }

    static void require(boolean ok, String key, Object value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException("invalid client config '" + key + "' = '" + value + "': " + rule);
        }
    }

    static void positive(String key, Duration value) {
        require(value != null && !value.isNegative() && !value.isZero(), key, value, "must be a positive duration");
    }

    static void positive(String key, long value) {
        require(value > 0, key, value, "must be positive");
    }

    static void notBlank(String key, String value) {
        require(value != null && !value.isBlank(), key, value, "must not be blank");
    }

    /** Checks a trace topic's name, when tracing is on. */
    static void traceTopic(Optional<String> traceTopic) {
        require(traceTopic != null, "traceTopic", null, "must be a topic or empty");
        traceTopic.ifPresent(topic -> {
            String problem = NameRules.topicProblem("customizedTraceTopic", topic);
            if (problem != null) {
                throw new IllegalArgumentException("invalid client config: " + problem);
            }
        });
    }

    /**
     * The trace topic of RocketMQ's enableMsgTrace and customizedTraceTopic: empty when tracing is off, the default
     * topic for a blank name (as RocketMQ's client takes it).
     */
    static Optional<String> traceTopic(boolean enableMsgTrace, String customizedTraceTopic) {
        if (!enableMsgTrace) {
            return Optional.empty();
        }
        return Optional.of(customizedTraceTopic == null || customizedTraceTopic.isBlank() ? SystemTopics.TRACE_TOPIC
                : customizedTraceTopic);
    }

    static void group(String key, String value) {
        String problem = NameRules.groupProblem(key, value);
        if (problem != null) {
            throw new IllegalArgumentException("invalid client config: " + problem);
        }
    }
}
