package dev.ferry.client;

import dev.ferry.format.ConfigProblems;
import dev.ferry.format.NameRules;
import dev.ferry.format.SystemTopics;
import java.util.Optional;

/** The client's config rules beyond the typed checks of {@link ConfigProblems}: names and the trace topic. */
final class ConfigCheck {
    private ConfigCheck() {
    }

    /** The client's wording of a bad value; the first one throws. */
    static final ConfigProblems CLIENT = ConfigProblems.failingFast((key, value, rule) -> "invalid client config '"
            + key + "' = '" + value + "': " + rule);

    /** Checks a trace topic's name, when tracing is on. */
    static void traceTopic(Optional<String> traceTopic) {
        CLIENT.require(traceTopic != null, "traceTopic", null, "must be a topic or empty");
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
