package dev.ferry.remoting.protocol.body;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.junit.jupiter.api.Test;

class BodyCodecTest {
    private final BodyCodec codec = new BodyCodec();

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void shouldReadTheHeartbeatApacheSends() {
        String captured = "{\"clientID\":\"192.0.2.2@8530#497446678826\",\"consumerDataSet\":[{\"consumeFromWhere\":"
                + "\"CONSUME_FROM_FIRST_OFFSET\",\"consumeType\":\"CONSUME_PASSIVELY\",\"groupName\":\"CG_PUSH\","
                + "\"messageModel\":\"CLUSTERING\",\"subscriptionDataSet\":[{\"classFilterMode\":false,\"codeSet\":[],"
                + "\"expressionType\":\"TAG\",\"subString\":\"*\",\"subVersion\":1795990046470,\"tagsSet\":[],"
                + "\"topic\":\"%RETRY%CG_PUSH\"},{\"classFilterMode\":false,\"codeSet\":[2598919,2598920],"
                + "\"expressionType\":\"TAG\",\"subString\":\"TagA || TagB\",\"subVersion\":1795990046444,"
                + "\"tagsSet\":[\"TagA\",\"TagB\"],\"topic\":\"TopicTest\"}],\"unitMode\":false}],"
                + "\"heartbeatFingerprint\":0,\"producerDataSet\":[{\"groupName\":\"CLIENT_INNER_PRODUCER\"}],"
                + "\"withoutSub\":false}";
        HeartbeatData heartbeat = codec.decode(utf8(captured), HeartbeatData.class);
        assertThat(heartbeat.clientID()).isEqualTo("192.0.2.2@8530#497446678826");
        assertThat(heartbeat.producerDataSet()).containsExactly(new ProducerData("CLIENT_INNER_PRODUCER"));
        ConsumerData consumer = heartbeat.consumerDataSet().iterator().next();
        assertThat(consumer.groupName()).isEqualTo("CG_PUSH");
        assertThat(consumer.subscriptionDataSet()).anySatisfy(s -> {
            assertThat(s.topic()).isEqualTo("TopicTest");
            assertThat(s.codeSet()).containsExactlyInAnyOrder("TagA".hashCode(), "TagB".hashCode());
            assertThat(s.matchesAllTags()).isFalse();
        });
        assertThat(consumer.subscriptionDataSet()).anySatisfy(s -> assertThat(s.matchesAllTags()).isTrue());
    }

    @Test
    void shouldReadUnquotedNumericKeysAsFastjsonWritesThem() {
        String captured = "{\"brokerAddrTable\":{\"broker-a\":{\"brokerAddrs\":{0:\"127.0.0.1:10911\"},"
                + "\"brokerName\":\"broker-a\",\"cluster\":\"DefaultCluster\",\"enableActingMaster\":false}},"
                + "\"clusterAddrTable\":{\"DefaultCluster\":[\"broker-a\"]}}";
        ClusterInfo info = codec.decode(utf8(captured), ClusterInfo.class);
        assertThat(info.brokerAddrTable().get("broker-a").masterAddress()).isEqualTo("127.0.0.1:10911");
        assertThat(info.clusterAddrTable()).containsEntry("DefaultCluster", Set.of("broker-a"));
    }

    @Test
    void shouldWriteBodiesApacheParses() {
        LockBatchRequestBody body = new LockBatchRequestBody("CG", "client-1",
                Set.of(new MessageQueueBody("T", "broker-a", 3)), false);
        org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody apache = RemotingSerializable.decode(
                codec.encode(body), org.apache.rocketmq.remoting.protocol.body.LockBatchRequestBody.class);
        assertThat(apache.getConsumerGroup()).isEqualTo("CG");
        assertThat(apache.getMqSet()).hasSize(1);
        assertThat(apache.getMqSet().iterator().next().getQueueId()).isEqualTo(3);

        org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseBody list = RemotingSerializable
                .decode(codec.encode(new ConsumerListBody(List.of("a", "b"))),
                        org.apache.rocketmq.remoting.protocol.header.GetConsumerListByGroupResponseBody.class);
        assertThat(list.getConsumerIdList()).containsExactly("a", "b");

        TopicRouteData route = new TopicRouteData(List.of(new QueueData("broker-a", 4, 4, 6, 0)),
                List.of(new BrokerData("C", "broker-a", Map.of(0L, "127.0.0.1:10911"), false)), null);
        org.apache.rocketmq.remoting.protocol.route.TopicRouteData parsed = RemotingSerializable.decode(
                codec.encode(route), org.apache.rocketmq.remoting.protocol.route.TopicRouteData.class);
        assertThat(parsed.getBrokerDatas().get(0).getBrokerAddrs()).containsEntry(0L, "127.0.0.1:10911");
    }

    @Test
    void shouldReadWhatApacheWritesForLockResponses() {
        org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody apache =
                new org.apache.rocketmq.remoting.protocol.body.LockBatchResponseBody();
        apache.getLockOKMQSet().add(new org.apache.rocketmq.common.message.MessageQueue("T", "broker-a", 1));
        LockBatchResponseBody ferry = codec.decode(apache.encode(), LockBatchResponseBody.class);
        assertThat(ferry.lockOKMQSet()).containsExactly(new MessageQueueBody("T", "broker-a", 1));
    }

    @Test
    void shouldNameTheBodyTypeWhenJsonIsMalformed() {
        assertThatThrownBy(() -> codec.decode(utf8("{\"clientID\":"), HeartbeatData.class))
                .isInstanceOf(BodyFormatException.class).hasMessageContaining("malformed HeartbeatData body");
        assertThatThrownBy(() -> codec.decode(new byte[0], HeartbeatData.class))
                .isInstanceOf(BodyFormatException.class).hasMessageContaining("has none");
    }
}
