package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.SubscriptionGroupConfig;
import dev.ferry.remoting.protocol.body.TopicConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryRoutingTest {
    @TempDir
    Path dir;

    private RetryRouting routing(Map<String, SubscriptionGroupConfig> groups, TopicConfigTable topics) {
        return new RetryRouting(16, group -> Optional.ofNullable(groups.get(group)), topics, () -> { });
    }

    private static SubscriptionGroupConfig group(String name, int retryQueueNums, int retryMaxTimes) {
        return new SubscriptionGroupConfig(name, true, true, true, false, retryQueueNums, retryMaxTimes, null, 0, 1,
                true, 0, 15, null, Map.of());
    }

    @Test
    void clientLimitWinsThenTheGroupsRetryMaxTimesThenTheBrokers() {
        TopicConfigTable topics = new TopicConfigTable(dir, Clock.system(), 100);
        RetryRouting routing = routing(Map.of("CG_THREE", group("CG_THREE", 1, 3)), topics);

        assertThat(routing.maxReconsumeTimes(5, "CG_THREE")).isEqualTo(5);
        assertThat(routing.maxReconsumeTimes(null, "CG_THREE")).isEqualTo(3);
        assertThat(routing.maxReconsumeTimes(-1, "CG_THREE")).isEqualTo(3);
        assertThat(routing.maxReconsumeTimes(null, "CG_UNKNOWN")).isEqualTo(16);
    }

    @Test
    void retryTopicGetsTheGroupsRetryQueueNums() {
        TopicConfigTable topics = new TopicConfigTable(dir, Clock.system(), 100);
        RetryRouting routing = routing(Map.of("CG_WIDE", group("CG_WIDE", 4, 16)), topics);

        assertThat(routing.retryTopic("CG_WIDE")).contains("%RETRY%CG_WIDE");
        assertThat(topics.get("%RETRY%CG_WIDE").map(TopicConfig::writeQueueNums)).contains(4);
        assertThat(routing.retryTopic("CG_PLAIN")).contains("%RETRY%CG_PLAIN");
        assertThat(topics.get("%RETRY%CG_PLAIN").map(TopicConfig::writeQueueNums)).contains(1);
        assertThat(routing.deadLetterTopic("CG_WIDE")).contains("%DLQ%CG_WIDE");
        assertThat(topics.get("%DLQ%CG_WIDE").map(TopicConfig::writeQueueNums)).contains(1);
    }
}
