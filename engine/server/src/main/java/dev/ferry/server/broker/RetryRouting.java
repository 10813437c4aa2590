package dev.ferry.server.broker;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.Permission;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a message a consumer group failed to consume goes next: back to the group's retry topic
 * after a delay that grows with each attempt, or, once the group has tried it often enough, to
 * the group's dead-letter topic ({@code %DLQ%group}, one queue), which no consumer of the group
 * reads.
 */
final class RetryRouting {
    /** RocketMQ's first retry waits delay level 3 (10 s by default); each further retry one level more. */
    static final int FIRST_RETRY_LEVEL = 3;

    private final int defaultMaxReconsumeTimes;
    private final Function<String, Optional<SubscriptionGroupConfig>> groupSettings;
    private final TopicConfigTable topics;
    private final Runnable topicsChanged;

    /** @param groupSettings a group's settings ({@code retryMaxTimes}, {@code retryQueueNums}) when it has some */
    RetryRouting(int defaultMaxReconsumeTimes, Function<String, Optional<SubscriptionGroupConfig>> groupSettings,
                 TopicConfigTable topics, Runnable topicsChanged) {
        this.defaultMaxReconsumeTimes = defaultMaxReconsumeTimes;
        this.groupSettings = groupSettings;
        this.topics = topics;
        this.topicsChanged = topicsChanged;
    }

    /**
     * The client's limit when it set one (Apache's clients send -1 unless their user did), else the group's
     * {@code retryMaxTimes}, else the broker's.
     */
    int maxReconsumeTimes(Integer fromClient, String group) {
        if (fromClient != null && fromClient >= 0) {
            return fromClient;
        }
        return groupSettings.apply(group).map(SubscriptionGroupConfig::retryMaxTimes).filter(times -> times >= 0)
                .orElse(defaultMaxReconsumeTimes);
    }

    /** The delay level of the next retry: the client's choice, or one level more per earlier attempt. */
    static int retryLevel(int requestedLevel, int reconsumeTimes) {
        return requestedLevel > 0 ? requestedLevel : FIRST_RETRY_LEVEL + reconsumeTimes;
    }

    /**
     * The group's retry topic (its {@code retryQueueNums} queues, one by default), created on first use; empty when
     * the broker serves all it may.
     */
    Optional<String> retryTopic(String group) {
        int queues = groupSettings.apply(group).map(SubscriptionGroupConfig::retryQueueNums).filter(n -> n > 0)
                .orElse(1);
        return createIfAbsent(SystemTopics.retryTopic(group), queues);
    }

    /** The group's dead-letter topic (one queue), created on first use; empty when the broker serves all it may. */
    Optional<String> deadLetterTopic(String group) {
        return createIfAbsent(SystemTopics.deadLetterTopic(group), 1);
    }

    private Optional<String> createIfAbsent(String topic, int queues) {
        if (topics.contains(topic)) {
            return Optional.of(topic);
        }
        Optional<TopicConfig> created = topics.putIfAbsent(new TopicConfig(topic, queues, queues,
                Permission.READ | Permission.WRITE, null, 0, false, Map.of()));
        created.ifPresent(c -> topicsChanged.run());
        return created.map(TopicConfig::topicName);
    }

    /** Why the topic could not be created. */
    String refusal(String topic) {
        return topics.refusal(topic);
    }
}
