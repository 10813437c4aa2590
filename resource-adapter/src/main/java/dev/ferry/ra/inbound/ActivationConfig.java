package dev.ferry.ra.inbound;

import dev.ferry.api.MessageModel;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.client.RedeliveryPolicy;
import dev.ferry.client.Subscription;
import dev.ferry.format.Clock;
import dev.ferry.remoting.Credentials;
import dev.ferry.spi.PluginConfig;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One activation's settings, validated by {@link FerryActivationSpec#validate()}.
 *
 * @param topic the topic the endpoint consumes
 * @param consumerGroup the consumer group
 * @param selectorType {@code TAG}, {@code SQL92} or the name of a filter plugin the broker has
 * @param selectorExpression the expression of that type ({@code *} for every message)
 * @param messageModel clustering or broadcasting
 * @param consumeMode concurrently, or one message at a time per queue in queue order
 * @param maxConcurrency most deliveries running at once
 * @param consumeFromWhere where queues without a committed offset start
 * @param consumeTimestamp the start for {@link ConsumeFromWhere#TIMESTAMP}; empty means half an hour before
 *     the activation, as RocketMQ does
 * @param maxReconsumeTimes redeliveries before a failing message goes to the dead-letter queue
 * @param allocateStrategy the allocate strategy plugin
 * @param offsetStore the offset store plugin; empty picks the model's default
 * @param offsetStoreDataSource the JNDI name of the data source an offset store plugin keeps offsets in, if any
 * @param nameServer other name servers than the adapter's, if given
 * @param credentials the user the activation signs as, if not the adapter's
 * @param traceTopic where a trace of each delivery is written (RocketMQ's enableMsgTrace and customizedTraceTopic);
 *     empty: none
 * @param maxBatchSize most messages of one queue in one delivery to a batch bean; 0 when not set (32 for a batch
 *     bean, 1 for a MessageListener bean, which takes no other)
 * @param maxBatchWait how long a short batch waits for more messages of its queue
 * @param pauseQueueAfterFailures failed deliveries in a row of one message that pause its queue; 0: never
 * @param redelivery how long a failed message waits before its next delivery; empty: the broker's schedule
 */
public record ActivationConfig(String topic, String consumerGroup, String selectorType, String selectorExpression,
                               MessageModel messageModel, ConsumeMode consumeMode, int maxConcurrency,
                               ConsumeFromWhere consumeFromWhere, Optional<Instant> consumeTimestamp,
                               int maxReconsumeTimes, String allocateStrategy, Optional<String> offsetStore,
                               Optional<String> offsetStoreDataSource, Optional<String> nameServer,
                               Optional<Credentials> credentials, Optional<String> traceTopic, int maxBatchSize,
                               Duration maxBatchWait, int pauseQueueAfterFailures,
                               Optional<RedeliveryPolicy> redelivery) {

    /** How far back {@link ConsumeFromWhere#TIMESTAMP} starts without a timestamp (RocketMQ's default). */
    static final Duration DEFAULT_TIMESTAMP_AGE = Duration.ofMinutes(30);

    public ActivationConfig {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(consumerGroup, "consumerGroup");
        Objects.requireNonNull(selectorType, "selectorType");
        Objects.requireNonNull(selectorExpression, "selectorExpression");
        Objects.requireNonNull(messageModel, "messageModel");
        Objects.requireNonNull(consumeMode, "consumeMode");
        Objects.requireNonNull(consumeFromWhere, "consumeFromWhere");
        Objects.requireNonNull(consumeTimestamp, "consumeTimestamp");
        Objects.requireNonNull(allocateStrategy, "allocateStrategy");
        Objects.requireNonNull(offsetStore, "offsetStore");
        Objects.requireNonNull(offsetStoreDataSource, "offsetStoreDataSource");
        Objects.requireNonNull(nameServer, "nameServer");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(traceTopic, "traceTopic");
        Objects.requireNonNull(maxBatchWait, "maxBatchWait");
        Objects.requireNonNull(redelivery, "redelivery");
    }

    /** How many messages a batch bean gets at most when {@code maxBatchSize} is not set: one pull's worth. */
    static final int DEFAULT_BATCH_SIZE = 32;

    /**
     * The messages per delivery for a bean that takes batches or not.
     *
     * @throws IllegalArgumentException when {@code maxBatchSize} is set above 1 for a bean that takes one message
     */
    int batchSize(boolean batches) {
        if (batches) {
            return maxBatchSize == 0 ? DEFAULT_BATCH_SIZE : maxBatchSize;
        }
        if (maxBatchSize > 1) {
            throw new IllegalArgumentException("maxBatchSize " + maxBatchSize + " is for beans that implement "
                    + "BatchMessageListener; this bean implements MessageListener, which takes one message a call");
        }
        return 1;
    }

    /**
     * The push consumer's settings; {@code clock} dates a missing consume timestamp.
     *
     * @param batches whether the bean takes batches
     */
    public PushConsumerConfig consumerConfig(Clock clock, boolean batches) {
        int batchSize = batchSize(batches);
        PushConsumerConfig.Builder builder = PushConsumerConfig.builder(consumerGroup)
                .subscribe(new Subscription(topic, selectorType, selectorExpression))
                .messageModel(messageModel)
                .consumeFromWhere(consumeFromWhere)
                .consumeOrderly(consumeMode == ConsumeMode.ORDERLY)
                .consumeThreads(maxConcurrency)
                .consumeBatchSize(batchSize)
                .consumeBatchWait(maxBatchWait)
                .pullBatchSize(Math.max(DEFAULT_BATCH_SIZE, batchSize))
                .pauseQueueAfterFailures(pauseQueueAfterFailures)
                .maxReconsumeTimes(maxReconsumeTimes)
                .allocateStrategy(allocateStrategy, PluginConfig.empty());
        if (consumeFromWhere == ConsumeFromWhere.TIMESTAMP) {
            builder.consumeFromTimestamp(consumeTimestamp.orElse(clock.instant().minus(DEFAULT_TIMESTAMP_AGE)));
        }
        redelivery.ifPresent(builder::redelivery);
        traceTopic.ifPresent(topic -> builder.enableMsgTrace(true).customizedTraceTopic(topic));
        offsetStore.ifPresent(name -> builder.offsetStore(name, offsetStoreDataSource
                .map(dataSource -> PluginConfig.of("dataSource", dataSource)).orElse(PluginConfig.empty())));
        return builder.build();
    }
}
