package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.format.ManualClock;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingServerConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.CompressedRegistration;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentMap;
import org.apache.rocketmq.common.MQVersion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A broker's topic table reaches the name server however large it is. */
@Tag("integration")
class LargeRegistrationTest {
    private static final int TOPICS = 100_000;

    @TempDir
    Path dir;

    private static String topic(int i) {
        return "Topic-of-a-large-broker-" + i;
    }

    @Test
    void shouldRegisterAHundredThousandTopicsCompressedInOneFrameAndRouteEveryOne() {
        TopicConfigTable table = new TopicConfigTable(dir.resolve("config"), new ManualClock(1), TOPICS + 10);
        for (int i = 0; i < TOPICS; i++) {
            table.putIfAbsent(TopicConfig.of(topic(i), 4));
        }
        table.persist();
        FerryServerConfig config = FerryServerConfig.builder(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).brokerLimits(BrokerLimits.builder().maxTopics(TOPICS + 10).build())
                .build();

        try (FerryServer server = new FerryServer(config, Clock.system(), new DefaultThreadFactory("large", true))
                .start()) {
            for (int i = 0; i < TOPICS; i++) {
                assertThat(server.nameServer().routes().route(topic(i))).as(topic(i)).isNotNull();
            }
            assertThat(server.nameServer().routes().route(topic(TOPICS - 1)).queueDatas().get(0).writeQueueNums())
                    .isEqualTo(4);
        }

        BrokerRegistration registration = new BrokerRegistration(BrokerConfig.builder(dir).build(), table,
                null, new BodyCodec());
        List<RemotingCommand> requests = registration.requests(table.snapshot());
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).extField("compressed")).isEqualTo("true");
        assertThat(requests.get(0).bodyLength()).isLessThan(RemotingServerConfig.DEFAULT_MAX_FRAME_LENGTH / 4);
    }

    @Test
    void shouldSplitARegistrationTooLargeEvenCompressedIntoPartsThatTogetherCarryEveryTopic() {
        TopicConfigTable table = new TopicConfigTable(dir.resolve("config"), new ManualClock(1), 20_000);
        for (int i = 0; i < 10_000; i++) {
            table.putIfAbsent(TopicConfig.of(topic(i), 2));
        }
        BodyCodec json = new BodyCodec();
        BrokerRegistration registration = new BrokerRegistration(BrokerConfig.builder(dir).build(), table, null, json,
                1024, 16 * 1024);

        List<RemotingCommand> parts = registration.requests(table.snapshot());

        assertThat(parts.size()).isGreaterThan(1);
        Set<String> carried = new HashSet<>();
        for (RemotingCommand part : parts) {
            assertThat(part.bodyLength()).isLessThanOrEqualTo(16 * 1024);
            carried.addAll(new CompressedRegistration(json).decode(part.body(), 1 << 24)
                    .topicConfigSerializeWrapper().topicConfigTable().keySet());
        }
        assertThat(carried).isEqualTo(table.all().keySet());
    }

    /** Apache's decoder is the oracle: it reads what Ferry compresses, and Ferry reads what Apache compresses. */
    @Test
    void shouldWriteAndReadTheCompressedLayoutAsApacheDoes() throws Exception {
        BodyCodec json = new BodyCodec();
        Map<String, TopicConfig> topics = new HashMap<>();
        for (int i = 0; i < 1_000; i++) {
            topics.put(topic(i), new TopicConfig(topic(i), 4, 3, 6, "SINGLE_TAG", 0, false,
                    i % 2 == 0 ? Map.of() : Map.of("+message.type", "NORMAL")));
        }
        byte[] ferry = new CompressedRegistration(json).encode(new RegisterBrokerBody(
                new TopicConfigSerializeWrapper(topics, new DataVersion(3, 1234, 56)), List.of()));

        org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody apache =
                org.apache.rocketmq.remoting.protocol.body.RegisterBrokerBody.decode(ferry, true,
                        MQVersion.Version.V5_3_3);
        ConcurrentMap<String, org.apache.rocketmq.common.TopicConfig> decoded =
                apache.getTopicConfigSerializeWrapper().getTopicConfigTable();
        assertThat(decoded).hasSize(1_000);
        assertThat(decoded.get(topic(7)).getReadQueueNums()).isEqualTo(4);
        assertThat(decoded.get(topic(7)).getWriteQueueNums()).isEqualTo(3);
        assertThat(decoded.get(topic(7)).getPerm()).isEqualTo(6);
        assertThat(decoded.get(topic(7)).getAttributes()).containsEntry("+message.type", "NORMAL");
        assertThat(apache.getTopicConfigSerializeWrapper().getDataVersion().getCounter().get()).isEqualTo(56);

        byte[] fromApache = apache.encode(true);
        RegisterBrokerBody back = new CompressedRegistration(json).decode(fromApache, 1 << 24);
        assertThat(back.topicConfigSerializeWrapper().topicConfigTable().keySet()).isEqualTo(topics.keySet());
        assertThat(back.topicConfigSerializeWrapper().topicConfigTable().get(topic(8)).writeQueueNums()).isEqualTo(3);
        assertThat(back.topicConfigSerializeWrapper().dataVersion().counter()).isEqualTo(56);
    }
}
