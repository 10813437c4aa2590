package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.api.MessageModel;
import dev.ferry.format.SystemTopics;
import dev.ferry.spi.PluginConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of one {@link PushConsumer}. Validated once when built.
 *
 * @param group the consumer group
 * @param subscriptions what the consumer reads; one per topic
 * @param messageModel clustering (queues divided in the group) or broadcasting (every consumer reads all)
 * @param consumeFromWhere where queues without a committed offset start
 * @param consumeTimestamp the start for {@link ConsumeFromWhere#TIMESTAMP}
 * @param allocateStrategy the name of the allocate strategy plugin
 * @param allocateStrategyConfig its settings
 * @param fallbackAllocateStrategy the strategy to go on with when the configured one's plugin goes away (its OSGi
 *     bundle stops or is uninstalled); empty: the consumer stops then
 * @param offsetStore the name of the offset store plugin; empty picks {@code broker} for clustering and
 *     {@code local-file} for broadcasting
 * @param offsetStoreConfig the offset store's settings (its provider documents the keys)
 * @param orderly whether each queue's messages reach the listener one at a time in queue order (clustering
 *     consumers then read only queues the broker locked to them); otherwise concurrently
 * @param consumeThreads threads calling the listener
 * @param consumeBatchSize messages handed to one consume task
 * @param pullBatchSize messages asked for per pull
 * @param pullThresholdForQueue pulling of a queue pauses while it holds this many unconsumed messages
 * @param pullThresholdSizeForQueue ... or this many bytes of bodies
 * @param consumeConcurrentlyMaxSpan ... or while its lowest and highest unconsumed offsets are further apart
 * @param maxReconsumeTimes redeliveries (orderly: attempts in place) before a failing message goes to the
 *     dead-letter queue
 * @param rebalanceInterval how often queues are re-divided (also at once when the group changes)
 * @param suspendTimeout how long a broker may hold a pull that found nothing
 * @param pullTimeout socket timeout of a pull
 * @param flowControlPause how long a flow-controlled queue waits before it is looked at again
 * @param pullErrorPause how long a queue waits after a failed pull
 * @param traceTopic where a trace of each delivery is written, in RocketMQ's trace format (RocketMQ's enableMsgTrace
 *     and customizedTraceTopic); empty: no traces
 * @param consumeBatchWait how long a batch shorter than {@code consumeBatchSize} may wait for more messages of its
 *     queue before it is handed over anyway; zero hands over what a pull brought at once
 * @param redelivery how long a failed message waits before its next delivery; empty: the broker's schedule by
 *     reconsume count (concurrent), one second (orderly)
 * @param pauseQueueAfterFailures failed deliveries in a row of one message after which its queue is paused (the
 *     message is retried in place until then, and the queue's messages wait until it is resumed or the message
 *     skipped); 0: never, failing messages go on to the dead-letter queue
 */
public record PushConsumerConfig(String group, List<Subscription> subscriptions, MessageModel messageModel,
                                 ConsumeFromWhere consumeFromWhere, Instant consumeTimestamp,
                                 String allocateStrategy, PluginConfig allocateStrategyConfig,
                                 Optional<String> fallbackAllocateStrategy, Optional<String> offsetStore,
                                 PluginConfig offsetStoreConfig, boolean orderly, int consumeThreads,
                                 int consumeBatchSize,
                                 int pullBatchSize, int pullThresholdForQueue, long pullThresholdSizeForQueue,
                                 int consumeConcurrentlyMaxSpan, int maxReconsumeTimes, Duration rebalanceInterval,
                                 Duration suspendTimeout, Duration pullTimeout, Duration flowControlPause,
                                 Duration pullErrorPause, Optional<String> traceTopic, Duration consumeBatchWait,
                                 Optional<RedeliveryPolicy> redelivery, int pauseQueueAfterFailures) {

    public PushConsumerConfig {
        ConfigCheck.group("group", group);
        CLIENT.require(subscriptions != null && !subscriptions.isEmpty(), "subscriptions", subscriptions,
                "subscribe to at least one topic");
        subscriptions = List.copyOf(subscriptions);
        CLIENT.require(subscriptions.stream().map(Subscription::topic).distinct().count() == subscriptions.size(),
                "subscriptions", subscriptions, "one subscription per topic");
        Objects.requireNonNull(messageModel, "messageModel");
        Objects.requireNonNull(consumeFromWhere, "consumeFromWhere");
        Objects.requireNonNull(consumeTimestamp, "consumeTimestamp");
        CLIENT.notBlank("allocateStrategy", allocateStrategy);
        Objects.requireNonNull(allocateStrategyConfig, "allocateStrategyConfig");
        CLIENT.require(fallbackAllocateStrategy != null && fallbackAllocateStrategy.map(n -> !n.isBlank())
                .orElse(true), "fallbackAllocateStrategy", fallbackAllocateStrategy, "must be a name or empty");
        Objects.requireNonNull(offsetStore, "offsetStore");
        Objects.requireNonNull(offsetStoreConfig, "offsetStoreConfig");
        CLIENT.positive("consumeThreads", consumeThreads);
        CLIENT.require(consumeBatchSize >= 1 && consumeBatchSize <= 1024, "consumeBatchSize", consumeBatchSize,
                "must be between 1 and 1024");
        CLIENT.require(pullBatchSize >= 1 && pullBatchSize <= 1024, "pullBatchSize", pullBatchSize,
                "must be between 1 and 1024");
        CLIENT.positive("pullThresholdForQueue", pullThresholdForQueue);
        CLIENT.require(consumeBatchWait != null && !consumeBatchWait.isNegative()
                && consumeBatchWait.compareTo(MAX_BATCH_WAIT) <= 0, "consumeBatchWait", consumeBatchWait,
                "must be between 0 and " + MAX_BATCH_WAIT);
        Objects.requireNonNull(redelivery, "redelivery");
        CLIENT.require(pauseQueueAfterFailures >= 0, "pauseQueueAfterFailures", pauseQueueAfterFailures,
                "must be 0 (never) or more");
        CLIENT.positive("pullThresholdSizeForQueue", pullThresholdSizeForQueue);
        CLIENT.positive("consumeConcurrentlyMaxSpan", consumeConcurrentlyMaxSpan);
        CLIENT.require(maxReconsumeTimes >= 0, "maxReconsumeTimes", maxReconsumeTimes, "must not be negative");
        CLIENT.positive("rebalanceInterval", rebalanceInterval);
        CLIENT.positive("suspendTimeout", suspendTimeout);
        ConfigCheck.traceTopic(traceTopic);
        CLIENT.require(pullTimeout != null && pullTimeout.compareTo(suspendTimeout) > 0, "pullTimeout",
                pullTimeout, "must be longer than suspendTimeout " + suspendTimeout);
        CLIENT.positive("flowControlPause", flowControlPause);
        CLIENT.positive("pullErrorPause", pullErrorPause);
    }

    public static Builder builder(String group) {
        return new Builder(group);
    }

    /** The longest {@code consumeBatchWait}: longer would hold messages past a broker's lock lease. */
    static final Duration MAX_BATCH_WAIT = Duration.ofSeconds(10);

    /** Whether failed messages are retried here, holding their queue, rather than handed back to the broker. */
    boolean retriesInPlace() {
        return orderly || pauseQueueAfterFailures > 0;
    }

    /** Builds a {@link PushConsumerConfig}; defaults follow RocketMQ's push consumer. */
    public static final class Builder {
        private final String group;
        private final List<Subscription> subscriptions = new ArrayList<>();
        private MessageModel messageModel = MessageModel.CLUSTERING;
        private ConsumeFromWhere consumeFromWhere = ConsumeFromWhere.LAST_OFFSET;
        private Instant consumeTimestamp;
        private String allocateStrategy = "averagely";
        private PluginConfig allocateStrategyConfig = PluginConfig.empty();
        private String fallbackAllocateStrategy;
        private String offsetStore;
        private PluginConfig offsetStoreConfig = PluginConfig.empty();
        private boolean orderly;
        private int consumeThreads = 20;
        private int consumeBatchSize = 1;
        private int pullBatchSize = 32;
        private int pullThresholdForQueue = 1000;
        private long pullThresholdSizeForQueue = 100L * 1024 * 1024;
        private int consumeConcurrentlyMaxSpan = 2000;
        private int maxReconsumeTimes = 16;
        private Duration rebalanceInterval = Duration.ofSeconds(20);
        private Duration suspendTimeout = Duration.ofSeconds(15);
        private Duration pullTimeout = Duration.ofSeconds(30);
        private Duration flowControlPause = Duration.ofMillis(50);
        private Duration pullErrorPause = Duration.ofSeconds(1);
        private boolean enableMsgTrace;
        private String customizedTraceTopic = SystemTopics.TRACE_TOPIC;
        private Duration consumeBatchWait = Duration.ZERO;
        private RedeliveryPolicy redelivery;
        private int pauseQueueAfterFailures;

        private Builder(String group) {
            this.group = group;
        }

        public Builder subscribe(Subscription value) {
            subscriptions.add(value);
            return this;
        }

        /** Subscribes to {@code topic} with a tag expression. */
        public Builder subscribe(String topic, String tagExpression) {
            return subscribe(Subscription.tags(topic, tagExpression));
        }

        public Builder messageModel(MessageModel value) {
            this.messageModel = value;
            return this;
        }

        public Builder consumeFromWhere(ConsumeFromWhere value) {
            this.consumeFromWhere = value;
            return this;
        }

        /** Starts new queues at {@code value}; sets {@link ConsumeFromWhere#TIMESTAMP}. */
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

        public Builder offsetStore(String name) {
            return offsetStore(name, PluginConfig.empty());
        }

        /** The offset store plugin and its settings. */
        public Builder offsetStore(String name, PluginConfig config) {
            this.offsetStore = name;
            this.offsetStoreConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        /** Consumes each queue in order (see {@link PushConsumerConfig#orderly()}). */
        public Builder consumeOrderly(boolean value) {
            this.orderly = value;
            return this;
        }

        public Builder consumeThreads(int value) {
            this.consumeThreads = value;
            return this;
        }

        public Builder consumeBatchSize(int value) {
            this.consumeBatchSize = value;
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

        public Builder pullThresholdSizeForQueue(long value) {
            this.pullThresholdSizeForQueue = value;
            return this;
        }

        public Builder consumeConcurrentlyMaxSpan(int value) {
            this.consumeConcurrentlyMaxSpan = value;
            return this;
        }

        public Builder maxReconsumeTimes(int value) {
            this.maxReconsumeTimes = value;
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

        public Builder flowControlPause(Duration value) {
            this.flowControlPause = value;
            return this;
        }

        public Builder pullErrorPause(Duration value) {
            this.pullErrorPause = value;
            return this;
        }

        /** Whether a trace of each delivery is written (RocketMQ's enableMsgTrace; default false). */
        public Builder enableMsgTrace(boolean value) {
            this.enableMsgTrace = value;
            return this;
        }

        /** Where traces go (RocketMQ's customizedTraceTopic; default RMQ_SYS_TRACE_TOPIC). */
        public Builder customizedTraceTopic(String value) {
            this.customizedTraceTopic = value;
            return this;
        }

        /** How long a short batch may wait for more messages of its queue (default zero: not at all). */
        public Builder consumeBatchWait(Duration value) {
            this.consumeBatchWait = value;
            return this;
        }

        /** How long failed messages wait before their next delivery (default: see {@link #redelivery()}). */
        public Builder redelivery(RedeliveryPolicy value) {
            this.redelivery = value;
            return this;
        }

        /** Failed deliveries in a row of one message that pause its queue (default 0: never). */
        public Builder pauseQueueAfterFailures(int value) {
            this.pauseQueueAfterFailures = value;
            return this;
        }

        public PushConsumerConfig build() {
            Instant timestamp = consumeTimestamp != null ? consumeTimestamp : Instant.EPOCH;
            return new PushConsumerConfig(group, subscriptions, messageModel, consumeFromWhere, timestamp,
                    allocateStrategy, allocateStrategyConfig, Optional.ofNullable(fallbackAllocateStrategy),
                    Optional.ofNullable(offsetStore), offsetStoreConfig, orderly, consumeThreads,
                    consumeBatchSize, pullBatchSize, pullThresholdForQueue, pullThresholdSizeForQueue,
                    consumeConcurrentlyMaxSpan, maxReconsumeTimes, rebalanceInterval, suspendTimeout, pullTimeout,
                    flowControlPause, pullErrorPause, ConfigCheck.traceTopic(enableMsgTrace, customizedTraceTopic),
                    consumeBatchWait, Optional.ofNullable(redelivery), pauseQueueAfterFailures);
        }
    }
}
