package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.ManualClock;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltInTopicsTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_000);

    private TopicConfigTable topics() {
        return new TopicConfigTable(dir, clock, 100);
    }

    private BrokerConfig config() {
        return BrokerConfig.builder(dir).clusterName("EastCluster").brokerName("east-a").build();
    }

    @Test
    void shouldSeedTheClusterBrokerAndReplyTopicsAsApachesBrokerHasThem() {
        TopicConfigTable topics = topics();

        BuiltInTopics.seed(topics, config());

        assertThat(topics.get("EastCluster").orElseThrow().writeQueueNums()).isEqualTo(16);
        assertThat(topics.get("east-a").orElseThrow().writeQueueNums()).isEqualTo(1);
        assertThat(topics.get(SystemTopics.replyTopic("EastCluster")).orElseThrow().readQueueNums()).isEqualTo(1);
    }

    @Test
    void shouldKeepWhatTheOperatorChangedWhenSeeding() {
        TopicConfigTable topics = topics();
        topics.putIfAbsent(TopicConfig.of("EastCluster", 4));

        BuiltInTopics.seed(topics, config());

        assertThat(topics.get("EastCluster").orElseThrow().writeQueueNums()).isEqualTo(4);
    }

    @Test
    void shouldBringBackStoredTopicsAndBothTransactionTopicsWhenHalfMessagesWereStored() {
        TopicConfigTable topics = topics();

        BuiltInTopics.restore(topics, Map.of("Orders", 3, SystemTopics.TRANSACTION_HALF_TOPIC, 1), config());

        assertThat(topics.get("Orders")).isPresent();
        assertThat(topics.get(SystemTopics.TRANSACTION_HALF_TOPIC)).isPresent();
        assertThat(topics.get(SystemTopics.TRANSACTION_OP_TOPIC)).isPresent();
    }

    @Test
    void shouldAddNoTransactionTopicWhenNoHalfMessageWasStored() {
        TopicConfigTable topics = topics();

        BuiltInTopics.restore(topics, Map.of("Orders", 3), config());

        assertThat(topics.get(SystemTopics.TRANSACTION_HALF_TOPIC)).isEmpty();
        assertThat(topics.get(SystemTopics.TRANSACTION_OP_TOPIC)).isEmpty();
    }

    @Test
    void shouldAddTheTraceTopicWhenTracingIsOn() {
        TopicConfigTable topics = topics();
        BrokerConfig tracing = BrokerConfig.builder(dir).traceTopicEnable(true).msgTraceTopicName("TraceHere").build();

        BuiltInTopics.restore(topics, Map.of(), tracing);

        assertThat(topics.get("TraceHere")).isPresent();
    }
}
