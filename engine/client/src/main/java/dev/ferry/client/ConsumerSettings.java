package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.format.SystemTopics;
import java.time.Duration;
import java.time.Instant;

/**
 * What the shared consumer machinery (rebalance, pulls, offsets) needs to know, taken from a
 * {@link PushConsumerConfig} or a {@link PullConsumerConfig}.
 */
record ConsumerSettings(String group, MessageModel messageModel, ConsumeFromWhere consumeFromWhere,
                        Instant consumeTimestamp, String consumeType, int pullBatchSize, int pullThresholdForQueue,
                        long pullThresholdSizeForQueue, int maxSpan, Duration rebalanceInterval,
                        Duration suspendTimeout, Duration pullTimeout, Duration flowControlPause,
                        Duration pullErrorPause) {

    static ConsumerSettings of(PushConsumerConfig c) {
        return new ConsumerSettings(c.group(), c.messageModel(), c.consumeFromWhere(), c.consumeTimestamp(),
                "CONSUME_PASSIVELY", c.pullBatchSize(), c.pullThresholdForQueue(), c.pullThresholdSizeForQueue(),
                c.consumeConcurrentlyMaxSpan(), c.rebalanceInterval(), c.suspendTimeout(), c.pullTimeout(),
                c.flowControlPause(), c.pullErrorPause());
    }

    static ConsumerSettings of(PullConsumerConfig c) {
        return new ConsumerSettings(c.group(), MessageModel.CLUSTERING, c.consumeFromWhere(), c.consumeTimestamp(),
                "CONSUME_ACTIVELY", c.pullBatchSize(), c.pullThresholdForQueue(), Long.MAX_VALUE, Integer.MAX_VALUE,
                c.rebalanceInterval(), c.suspendTimeout(), c.pullTimeout(), Duration.ofMillis(50),
                c.pullErrorPause());
    }

    /** The group's retry topic, which clustering push consumers also read. */
    String retryTopic() {
        return SystemTopics.retryTopic(group);
    }
}
