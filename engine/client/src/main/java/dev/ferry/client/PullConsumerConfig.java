package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.format.SystemTopics;
import dev.ferry.spi.PluginConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Settings of one {@link PullConsumer} (RocketMQ's "lite pull" consumer): the application polls; the
 * consumer pulls ahead in the background and commits offsets. Validated once when built.
 *
 * @param group the consumer group
 * @param consumeFromWhere where queues without a committed offset start
 * @param consumeTimestamp the start for {@link ConsumeFromWhere#TIMESTAMP}
 * @param allocateStrategy allocate strategy plugin used for {@link PullConsumer#subscribe} (clustering)
 * @param allocateStrategyConfig its settings
 * @param fallbackAllocateStrategy the strategy to go on with when the configured one's plugin goes away (its OSGi
 *     bundle stops or is uninstalled); empty: the consumer stops then
 * @param autoCommit whether polled messages' offsets are committed every {@code autoCommitInterval}
 * @param autoCommitInterval how often offsets are committed automatically
 * @param pullBatchSize messages asked for per pull
 * @param pullThresholdForQueue pulling of a queue pauses while this many of its messages wait to be polled
 * @param rebalanceInterval how often subscribed topics' queues are re-divided
 * @param suspendTimeout how long a broker may hold a pull that found nothing
 * @param pullTimeout socket timeout of a pull
 * @param pullErrorPause how long a queue waits after a failed pull
 * @param traceTopic where a trace of each polled message is written, in RocketMQ's trace format (RocketMQ's
 *     enableMsgTrace and customizedTraceTopic); empty: no traces
 */
public record PullConsumerConfig(String group, ConsumeFromWhere consumeFromWhere, Instant consumeTimestamp,
                                 String allocateStrategy, PluginConfig allocateStrategyConfig,
                                 Optional<String> fallbackAllocateStrategy, boolean autoCommit,
                                 Duration autoCommitInterval, int pullBatchSize, int pullThresholdForQueue,
                                 Duration rebalanceInterval, Duration suspendTimeout, Duration pullTimeout,
                                 Duration pullErrorPause, Optional<String> traceTopic) {

    public PullConsumerConfig {
        ConfigCheck.group("group", group);
        CLIENT.require(consumeFromWhere != null, "consumeFromWhere", consumeFromWhere, "must be set");
        CLIENT.require(consumeTimestamp != null, "consumeTimestamp", consumeTimestamp, "must be set");
        CLIENT.notBlank("allocateStrategy", allocateStrategy);
        CLIENT.require(allocateStrategyConfig != null, "allocateStrategyConfig", null, "must be set");
        CLIENT.require(fallbackAllocateStrategy != null && fallbackAllocateStrategy.map(n -> !n.isBlank())
                .orElse(true), "fallbackAllocateStrategy", fallbackAllocateStrategy, "must be a name or empty");
        CLIENT.positive("autoCommitInterval", autoCommitInterval);
        CLIENT.require(pullBatchSize >= 1 && pullBatchSize <= 1024, "pullBatchSize", pullBatchSize,
                "must be between 1 and 1024");
        CLIENT.positive("pullThresholdForQueue", pullThresholdForQueue);
        CLIENT.positive("rebalanceInterval", rebalanceInterval);
        CLIENT.positive("suspendTimeout", suspendTimeout);
        CLIENT.require(pullTimeout != null && pullTimeout.compareTo(suspendTimeout) > 0, "pullTimeout",
                pullTimeout, "must be longer than suspendTimeout " + suspendTimeout);
        CLIENT.positive("pullErrorPause", pullErrorPause);
        ConfigCheck.traceTopic(traceTopic);
    }

    public static Builder builder(String group) {
        return new Builder(group);
    }

    /** Builds a {@link PullConsumerConfig}; defaults follow RocketMQ's lite pull consumer. */
    public static final class Builder {
        private final String group;
        private ConsumeFromWhere consumeFromWhere = ConsumeFromWhere.LAST_OFFSET;
        private Instant consumeTimestamp = Instant.EPOCH;
        private String allocateStrategy = "averagely";
        private PluginConfig allocateStrategyConfig = PluginConfig.empty();
        private String fallbackAllocateStrategy;
        private boolean autoCommit = true;
        private Duration autoCommitInterval = Duration.ofSeconds(5);
        private int pullBatchSize = 10;
        private int pullThresholdForQueue = 1000;
        private Duration rebalanceInterval = Duration.ofSeconds(20);
        private Duration suspendTimeout = Duration.ofSeconds(20);
        private Duration pullTimeout = Duration.ofSeconds(30);
        private Duration pullErrorPause = Duration.ofSeconds(1);
        private boolean enableMsgTrace;
        private String customizedTraceTopic = SystemTopics.TRACE_TOPIC;

        private Builder(String group) {
            this.group = group;
        }

        public Builder consumeFromWhere(ConsumeFromWhere value) {
            this.consumeFromWhere = value;
            return this;
        }

        public Builder consumeFromTimestamp(Instant value) {
            this.consumeFromWhere = ConsumeFromWhere.TIMESTAMP;
            this.consumeTimestamp = value;
            return this;
        }

        public Builder allocateStrategy(String name, PluginConfig config) {
            this.allocateStrategy = name;
            this.allocateStrategyConfig = config;
            return this;
        }

        /** The strategy to go on with when the configured one's plugin goes away; none (the default): stop. */
        public Builder fallbackAllocateStrategy(String name) {
            this.fallbackAllocateStrategy = name;
            return this;
        }

        public Builder autoCommit(boolean value) {
            this.autoCommit = value;
            return this;
        }

        public Builder autoCommitInterval(Duration value) {
            this.autoCommitInterval = value;
            return this;
        }

        public Builder pullBatchSize(int value) {
            this.pullBatchSize = value;
            return this;
        }

        public Builder pullThresholdForQueue(int value) {
            this.pullThresholdForQueue = value;
            return this;
        }

        public Builder rebalanceInterval(Duration value) {
            this.rebalanceInterval = value;
            return this;
        }

        public Builder suspendTimeout(Duration value) {
            this.suspendTimeout = value;
            return this;
        }

        public Builder pullTimeout(Duration value) {
            this.pullTimeout = value;
            return this;
        }

        public Builder pullErrorPause(Duration value) {
            this.pullErrorPause = value;
            return this;
        }

        /** Whether a trace of each polled message is written (RocketMQ's enableMsgTrace; default false). */
        public Builder enableMsgTrace(boolean value) {
            this.enableMsgTrace = value;
            return this;
        }

        /** Where traces go (RocketMQ's customizedTraceTopic; default RMQ_SYS_TRACE_TOPIC). */
        public Builder customizedTraceTopic(String value) {
            this.customizedTraceTopic = value;
            return this;
        }

        public PullConsumerConfig build() {
            return new PullConsumerConfig(group, consumeFromWhere, consumeTimestamp, allocateStrategy,
                    allocateStrategyConfig, Optional.ofNullable(fallbackAllocateStrategy), autoCommit, autoCommitInterval, pullBatchSize, pullThresholdForQueue,
                    rebalanceInterval, suspendTimeout, pullTimeout, pullErrorPause,
                    ConfigCheck.traceTopic(enableMsgTrace, customizedTraceTopic));
        }
    }
}
