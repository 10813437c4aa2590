package dev.ferry.client;

import static dev.ferry.client.ConfigCheck.CLIENT;

import dev.ferry.format.SystemTopics;
import java.time.Duration;
import java.util.Optional;

/**
 * Settings of one {@link Producer}. Validated once when built.
 *
 * @param group the producer group
 * @param sendTimeout how long a send may take, retries included
 * @param retriesWhenSendFailed extra attempts of a synchronous or asynchronous send, each on another broker
 *     when there is one
 * @param compressThreshold bodies larger than this many bytes are zlib-compressed (single sends only)
 * @param maxMessageSize largest body, or batch body, accepted
 * @param defaultTopicQueueNums how many queues the broker creates for a topic that does not exist yet
 * @param brokerFailurePause how long a broker that failed a send is avoided when choosing queues
 * @param traceTopic where a trace of each send is written, in RocketMQ's trace format (RocketMQ's enableMsgTrace and
 *     customizedTraceTopic); empty: no traces
 */
public record ProducerConfig(String group, Duration sendTimeout, int retriesWhenSendFailed, int compressThreshold,
                             int maxMessageSize, int defaultTopicQueueNums, Duration brokerFailurePause,
                             Optional<String> traceTopic) {

    /** The topic whose route stands in for a topic that does not exist yet. */
    public static final String AUTO_CREATE_TOPIC = SystemTopics.AUTO_CREATE_TOPIC;

    public ProducerConfig {
        ConfigCheck.group("group", group);
        CLIENT.positive("sendTimeout", sendTimeout);
        CLIENT.require(retriesWhenSendFailed >= 0, "retriesWhenSendFailed", retriesWhenSendFailed,
                "must not be negative");
        CLIENT.positive("compressThreshold", compressThreshold);
        CLIENT.require(maxMessageSize > 0 && maxMessageSize <= 4 * 1024 * 1024, "maxMessageSize",
                maxMessageSize, "must be between 1 and 4194304 bytes");
        CLIENT.positive("defaultTopicQueueNums", defaultTopicQueueNums);
        CLIENT.positive("brokerFailurePause", brokerFailurePause);
        ConfigCheck.traceTopic(traceTopic);
    }

    public static Builder builder(String group) {
        return new Builder(group);
    }

    /** Builds a {@link ProducerConfig}; defaults follow RocketMQ's producer. */
    public static final class Builder {
        private final String group;
        private Duration sendTimeout = Duration.ofSeconds(3);
        private int retriesWhenSendFailed = 2;
        private int compressThreshold = 4096;
        private int maxMessageSize = 4 * 1024 * 1024;
        private int defaultTopicQueueNums = 4;
        private Duration brokerFailurePause = Duration.ofSeconds(10);
        private boolean enableMsgTrace;
        private String customizedTraceTopic = SystemTopics.TRACE_TOPIC;

        private Builder(String group) {
            this.group = group;
        }

        public Builder sendTimeout(Duration value) {
            this.sendTimeout = value;
            return this;
        }

        public Builder retriesWhenSendFailed(int value) {
            this.retriesWhenSendFailed = value;
            return this;
        }

        public Builder compressThreshold(int value) {
            this.compressThreshold = value;
            return this;
        }

        public Builder maxMessageSize(int value) {
            this.maxMessageSize = value;
            return this;
        }

        public Builder defaultTopicQueueNums(int value) {
            this.defaultTopicQueueNums = value;
            return this;
        }

        public Builder brokerFailurePause(Duration value) {
            this.brokerFailurePause = value;
            return this;
        }

        /** Whether a trace of each send is written (RocketMQ's enableMsgTrace; default false). */
        public Builder enableMsgTrace(boolean value) {
            this.enableMsgTrace = value;
            return this;
        }

        /** Where traces go (RocketMQ's customizedTraceTopic; default RMQ_SYS_TRACE_TOPIC). */
        public Builder customizedTraceTopic(String value) {
            this.customizedTraceTopic = value;
            return this;
        }

        public ProducerConfig build() {
            return new ProducerConfig(group, sendTimeout, retriesWhenSendFailed, compressThreshold, maxMessageSize,
                    defaultTopicQueueNums, brokerFailurePause, ConfigCheck.traceTopic(enableMsgTrace,
                    customizedTraceTopic));
        }
    }
}
