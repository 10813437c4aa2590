package dev.ferry.remoting.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.admin.OffsetWrapper;
import org.apache.rocketmq.remoting.protocol.admin.TopicOffset;
import org.junit.jupiter.api.Test;

/**
 * Bodies whose maps are keyed by message queues, which Apache's peers write with objects as keys: Ferry reads what
 * Apache writes, and writes what both of Apache's JSON libraries (fastjson 1 and 2) read back.
 */
class ObjectKeyedBodiesTest {
    private final BodyCodec codec = new BodyCodec();

    private static MessageQueue apacheQueue(int id) {
        return new MessageQueue("Topic{\"x\"}", "broker-a", id);
    }

    @Test
    void readsConsumeStatsAsApacheWritesThem() {
        org.apache.rocketmq.remoting.protocol.admin.ConsumeStats apache =
                new org.apache.rocketmq.remoting.protocol.admin.ConsumeStats();
        for (int i = 0; i < 3; i++) {
            OffsetWrapper wrapper = new OffsetWrapper();
            wrapper.setBrokerOffset(100 + i);
            wrapper.setConsumerOffset(90 + i);
            wrapper.setLastTimestamp(1_700_000_000_000L + i);
            apache.getOffsetTable().put(apacheQueue(i), wrapper);
        }
        apache.setConsumeTps(1.5);

        ConsumeStats read = codec.decode(apache.encode(), ConsumeStats.class);

        assertThat(read.consumeTps()).isEqualTo(1.5);
        assertThat(read.offsetTable()).hasSize(3);
        assertThat(read.offsetTable().get(new MessageQueueBody("Topic{\"x\"}", "broker-a", 2)))
                .isEqualTo(new ConsumeStats.OffsetWrapper(102, 92, 0, 1_700_000_000_002L));
        assertThat(read.lag()).isEqualTo(30);
    }

    @Test
    void writesConsumeStatsThatFastjsonOneAndTwoRead() {
        ConsumeStats ferry = new ConsumeStats(Map.of(
                new MessageQueueBody("T", "broker-a", 0), new ConsumeStats.OffsetWrapper(10, 4, 4, 7),
                new MessageQueueBody("T", "broker-b", 1), new ConsumeStats.OffsetWrapper(5, 5, 5, 0)), 2.5);
        byte[] json = codec.encode(ferry);

        org.apache.rocketmq.remoting.protocol.admin.ConsumeStats one = RemotingSerializable.decode(json,
                org.apache.rocketmq.remoting.protocol.admin.ConsumeStats.class);
        assertThat(one.getConsumeTps()).isEqualTo(2.5);
        assertThat(one.getOffsetTable().get(new MessageQueue("T", "broker-a", 0)).getBrokerOffset()).isEqualTo(10);
        assertThat(one.computeTotalDiff()).isEqualTo(6);

        org.apache.rocketmq.remoting.protocol.admin.ConsumeStats two = com.alibaba.fastjson2.JSON.parseObject(
                new String(json, StandardCharsets.UTF_8), org.apache.rocketmq.remoting.protocol.admin.ConsumeStats.class);
        assertThat(two.getOffsetTable().get(new MessageQueue("T", "broker-b", 1)).getConsumerOffset()).isEqualTo(5);
    }

    @Test
    @SuppressWarnings("deprecation") // Apache's GetConsumerStatusBody: deprecated, still what its tools send
    void topicStatsResetBodiesAndConsumerStatusTravelBothWays() {
        TopicStatsTable stats = new TopicStatsTable(Map.of(new MessageQueueBody("T", "b", 0),
                new TopicStatsTable.TopicOffset(1, 9, 1234)), 0.5);
        org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable apacheStats = RemotingSerializable.decode(
                codec.encode(stats), org.apache.rocketmq.remoting.protocol.admin.TopicStatsTable.class);
        TopicOffset offset = apacheStats.getOffsetTable().get(new MessageQueue("T", "b", 0));
        assertThat(offset.getMaxOffset()).isEqualTo(9);
        assertThat(offset.getLastUpdateTimestamp()).isEqualTo(1234);
        assertThat(codec.decode(apacheStats.encode(), TopicStatsTable.class)).isEqualTo(stats);

        ResetOffsetBody reset = new ResetOffsetBody(Map.of(new MessageQueueBody("T", "b", 3), 42L));
        org.apache.rocketmq.remoting.protocol.body.ResetOffsetBody apacheReset = RemotingSerializable.decode(
                codec.encode(reset), org.apache.rocketmq.remoting.protocol.body.ResetOffsetBody.class);
        assertThat(apacheReset.getOffsetTable()).containsEntry(new MessageQueue("T", "b", 3), 42L);
        assertThat(codec.decode(apacheReset.encode(), ResetOffsetBody.class)).isEqualTo(reset);

        ConsumerStatusBody status = new ConsumerStatusBody(Map.of(), Map.of("client-1",
                Map.of(new MessageQueueBody("T", "b", 0), 7L)));
        org.apache.rocketmq.remoting.protocol.body.GetConsumerStatusBody apacheStatus = RemotingSerializable.decode(
                codec.encode(status), org.apache.rocketmq.remoting.protocol.body.GetConsumerStatusBody.class);
        assertThat(apacheStatus.getConsumerTable().get("client-1")).containsEntry(new MessageQueue("T", "b", 0), 7L);
    }

    @Test
    void runningInfoKeepsWhatApachesAnalysisReads() {
        ConsumerRunningInfo info = new ConsumerRunningInfo(Map.of(ConsumerRunningInfo.PROP_CONSUME_TYPE,
                "CONSUME_PASSIVELY", ConsumerRunningInfo.PROP_CONSUMER_START_TIMESTAMP, "1700000000000"),
                Set.of(new SubscriptionData("T", "*", Set.of(), Set.of(), 1, "TAG", false)),
                Map.of(new MessageQueueBody("T", "b", 0), new ConsumerRunningInfo.ProcessQueueInfo(5, 0, 0, 0, 0, 0, 0,
                        0, false, 0, 0, false, 1, 1)), Map.of(), Map.of(), Map.of(), null);
        org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo apache = RemotingSerializable.decode(
                codec.encode(info), org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo.class);
        assertThat(apache.getProperties().getProperty(ConsumerRunningInfo.PROP_CONSUME_TYPE))
                .isEqualTo("CONSUME_PASSIVELY");
        assertThat(apache.getMqTable().get(new MessageQueue("T", "b", 0)).getCommitOffset()).isEqualTo(5);
        assertThat(org.apache.rocketmq.remoting.protocol.body.ConsumerRunningInfo.analyzeProcessQueue("c", apache))
                .isEmpty();
    }

    @Test
    void quotingLeavesStringsAndOrdinaryObjectsAlone() {
        String json = "{\"a\":\"{{not a key}}\",\"m\":{{\"topic\":\"t,{\",\"queueId\":1}:2},\"o\":{\"x\":{\"y\":1}}}";
        String quoted = ObjectKeys.quoted(json);
        assertThat(quoted).isEqualTo("{\"a\":\"{{not a key}}\",\"m\":{\"{\\\"topic\\\":\\\"t,{\\\",\\\"queueId\\\":1}\":2},"
                + "\"o\":{\"x\":{\"y\":1}}}");
    }

    @Test
    void refusesBodiesNestedBeyondTheLimitOrWithAnOpenKey() {
        String deep = "{\"a\":" + "[".repeat(ObjectKeys.MAX_DEPTH + 1) + "]".repeat(ObjectKeys.MAX_DEPTH + 1) + "}";
        assertThatThrownBy(() -> ObjectKeys.quoted(deep)).isInstanceOf(BodyFormatException.class)
                .hasMessageContaining("deeper");
        assertThatThrownBy(() -> codec.decode("{\"offsetTable\":{{\"topic\":\"T\"".getBytes(StandardCharsets.UTF_8),
                ResetOffsetBody.class)).isInstanceOf(BodyFormatException.class);
    }
}
