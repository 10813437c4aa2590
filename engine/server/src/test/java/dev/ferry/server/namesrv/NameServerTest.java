package dev.ferry.server.namesrv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.format.ManualClock;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.RegisterBrokerBody;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicConfigSerializeWrapper;
import dev.ferry.remoting.protocol.header.GetRouteInfoRequestHeader;
import dev.ferry.remoting.protocol.header.RegisterBrokerRequestHeader;
import dev.ferry.remoting.protocol.header.UnregisterBrokerRequestHeader;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyRemotingClient;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("integration")
class NameServerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final ManualClock clock = new ManualClock(1_000_000L);
    private final BodyCodec json = new BodyCodec();
    private NameServer nameServer;
    private RemotingClient broker;
    private String address;

    @BeforeEach
    void start() {
        nameServer = new NameServer(NameServerConfig.defaults().withPort(0), clock,
                new DefaultThreadFactory("namesrv-test", true)).start();
        address = "127.0.0.1:" + nameServer.port();
        broker = new RemotingClient(RemotingClientConfig.builder().build());
    }

    @AfterEach
    void stop() {
        broker.close();
        nameServer.close();
    }

    private RemotingCommand register(String brokerName, String brokerAddr, long counter, TopicConfig... topics) {
        Map<String, TopicConfig> table = new java.util.HashMap<>();
        for (TopicConfig topic : topics) {
            table.put(topic.topicName(), topic);
        }
        byte[] body = json.encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(table,
                new DataVersion(0, clock.millis(), counter)), List.of()));
        CRC32 crc = new CRC32();
        crc.update(body);
        return broker.invokeSync(address, RemotingCommand.request(RequestCode.REGISTER_BROKER,
                new RegisterBrokerRequestHeader(brokerName, brokerAddr, "DefaultCluster", "127.0.0.1:10912", 0L,
                        null, false, false, (int) (crc.getValue() & 0x7FFFFFFF))).body(body).build(), TIMEOUT);
    }

    private RemotingCommand route(String topic) {
        return broker.invokeSync(address, RemotingCommand.request(RequestCode.GET_ROUTEINFO_BY_TOPIC,
                new GetRouteInfoRequestHeader(topic, null)).build(), TIMEOUT);
    }

    @Test
    void shouldServeRoutesApacheClientsParse() throws Exception {
        assertThat(register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("TopicTest", 4),
                new TopicConfig("TBW102", 8, 8, 7, null, 0, false, Map.of())).code()).isEqualTo(ResponseCode.SUCCESS);

        NettyRemotingClient apache = new NettyRemotingClient(new NettyClientConfig());
        apache.start();
        try {
            org.apache.rocketmq.remoting.protocol.RemotingCommand request = org.apache.rocketmq.remoting.protocol
                    .RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, null);
            request.addExtField("topic", "TopicTest");
            org.apache.rocketmq.remoting.protocol.RemotingCommand response = apache.invokeSync(address, request, 5000);
            assertThat(response.getCode()).isEqualTo(ResponseCode.SUCCESS);
            TopicRouteData route = RemotingSerializable.decode(response.getBody(), TopicRouteData.class);
            assertThat(route.getQueueDatas()).hasSize(1);
            assertThat(route.getQueueDatas().get(0).getBrokerName()).isEqualTo("broker-a");
            assertThat(route.getQueueDatas().get(0).getWriteQueueNums()).isEqualTo(4);
            assertThat(route.getQueueDatas().get(0).getPerm()).isEqualTo(6);
            assertThat(route.getBrokerDatas().get(0).getBrokerAddrs()).containsEntry(0L, "127.0.0.1:10911");
            assertThat(route.getBrokerDatas().get(0).getCluster()).isEqualTo("DefaultCluster");

            org.apache.rocketmq.remoting.protocol.RemotingCommand missing = org.apache.rocketmq.remoting.protocol
                    .RemotingCommand.createRequestCommand(RequestCode.GET_ROUTEINFO_BY_TOPIC, null);
            missing.addExtField("topic", "Nope");
            assertThat(apache.invokeSync(address, missing, 5000).getCode()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);

            org.apache.rocketmq.remoting.protocol.RemotingCommand cluster = apache.invokeSync(address,
                    org.apache.rocketmq.remoting.protocol.RemotingCommand.createRequestCommand(
                            RequestCode.GET_BROKER_CLUSTER_INFO, null), 5000);
            ClusterInfo info = RemotingSerializable.decode(cluster.getBody(), ClusterInfo.class);
            assertThat(info.getClusterAddrTable().get("DefaultCluster")).containsExactly("broker-a");
            assertThat(info.getBrokerAddrTable().get("broker-a").getBrokerAddrs()).containsEntry(0L, "127.0.0.1:10911");
        } finally {
            apache.shutdown();
        }
    }

    @Test
    void shouldAnswerTopicNotExistWithRemarkForUnknownTopics() {
        RemotingCommand response = route("Unknown");
        assertThat(response.code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(response.remark()).contains("No topic route info").contains("Unknown");
    }

    @Test
    void shouldUpdateTheTopicsARegistrationCarriesAndKeepTheOnesItOmitsAsApacheDoes() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4), TopicConfig.of("C", 1));
        register("broker-a", "127.0.0.1:10911", 2, TopicConfig.of("B", 2), TopicConfig.of("C", 3));
        assertThat(readQueues("A")).isEqualTo(4);
        assertThat(readQueues("B")).isEqualTo(2);
        assertThat(readQueues("C")).isEqualTo(3);

        assertThat(register("broker-a", "127.0.0.1:10911", 3).code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(readQueues("A")).as("an empty registration wipes nothing").isEqualTo(4);
    }

    private int readQueues(String topic) {
        return json.decode(route(topic).body(), dev.ferry.remoting.protocol.body.TopicRouteData.class)
                .queueDatas().get(0).readQueueNums();
    }

    @Test
    void shouldRefuseAnotherAddressTakingTheNameAndIdOfALiveBroker() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4));
        RemotingClient intruder = new RemotingClient(RemotingClientConfig.builder().build());
        try {
            RemotingCommand response = registerOver(intruder, "broker-a", "10.9.9.9:10911", 99);

            assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
            assertThat(response.remark()).contains("broker-a").contains("127.0.0.1:10911").contains("alive");
            assertThat(nameServer.routes().route("A").brokerDatas().get(0).brokerAddrs())
                    .containsEntry(0L, "127.0.0.1:10911");
        } finally {
            intruder.close();
        }

        broker.closeChannel(address);
        await().atMost(TIMEOUT).until(() -> nameServer.routes().route("A") == null);
        RemotingClient successor = new RemotingClient(RemotingClientConfig.builder().build());
        try {
            assertThat(registerOver(successor, "broker-a", "127.0.0.1:20911", 5, TopicConfig.of("A", 4)).code())
                    .as("once the live broker has gone").isEqualTo(ResponseCode.SUCCESS);
        } finally {
            successor.close();
        }
    }

    @Test
    void shouldKeepABrokersRoutesWhenAnotherConnectionThatRegisteredItsAddressCloses() {
        RouteTable table = new RouteTable(clock);
        Map<String, TopicConfig> topics = Map.of("A", TopicConfig.of("A", 4));
        table.register("DefaultCluster", "broker-a", "127.0.0.1:10911", 0, "", false, new DataVersion(0, 1, 1),
                topics, "real-connection", "127.0.0.1");
        table.register("DefaultCluster", "broker-a", "127.0.0.1:10911", 0, "", false, new DataVersion(0, 1, 1),
                Map.of(), "other-connection", "127.0.0.1");

        table.connectionClosed("other-connection");
        assertThat(table.route("A")).isNotNull();
        table.connectionClosed("real-connection");
        assertThat(table.route("A")).isNull();
    }

    @Test
    void shouldLetOnlyTheBrokerUnregisterItselfKeepItsClusterAndBoundItsQueues() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4));
        RemotingClient other = new RemotingClient(RemotingClientConfig.builder().build());
        try {
            RemotingCommand unregister = other.invokeSync(address, RemotingCommand.request(
                    RequestCode.UNREGISTER_BROKER, new UnregisterBrokerRequestHeader("broker-a", "127.0.0.1:10911",
                            "DefaultCluster", 0L)).build(), TIMEOUT);
            assertThat(unregister.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
            assertThat(unregister.remark()).contains("only the broker may unregister it");
            assertThat(route("A").code()).isEqualTo(ResponseCode.SUCCESS);
        } finally {
            other.close();
        }

        RouteTable table = new RouteTable(clock);
        table.register("ClusterA", "broker-x", "127.0.0.1:1", 0, "", false, new DataVersion(0, 1, 1), Map.of(), "c1",
                "127.0.0.1");
        assertThat(table.register("ClusterB", "broker-x", "127.0.0.1:2", 1, "", false, new DataVersion(0, 1, 1),
                Map.of(), "c2", "127.0.0.1").refusal()).contains("belongs to cluster ClusterA");
        for (int i = 0; i < 7; i++) {
            table.register("ClusterA", "broker-x", "127.0.0.1:1", 0, "", false, new DataVersion(0, 1, 1), Map.of(),
                    "extra-" + i, "127.0.0.1");
        }
        assertThat(table.register("ClusterA", "broker-x", "127.0.0.1:1", 0, "", false, new DataVersion(0, 1, 1),
                Map.of(), "one-too-many", "127.0.0.1").accepted()).as("its open connections are not pushed out")
                .isFalse();

        RemotingCommand huge = register("broker-a", "127.0.0.1:10911", 2, new TopicConfig("Huge", 70_000, 70_000, 6,
                null, 0, false, Map.of()), new TopicConfig("BadPerm", 1, 1, 64, null, 0, false, Map.of()));
        assertThat(huge.remark()).contains("2 topics not routed");
        assertThat(route("Huge").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    private RemotingCommand registerOver(RemotingClient client, String brokerName, String brokerAddr, long counter,
                                         TopicConfig... topics) {
        Map<String, TopicConfig> table = new java.util.HashMap<>();
        for (TopicConfig topic : topics) {
            table.put(topic.topicName(), topic);
        }
        byte[] body = json.encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(table,
                new DataVersion(0, clock.millis(), counter)), List.of()));
        return client.invokeSync(address, RemotingCommand.request(RequestCode.REGISTER_BROKER,
                new RegisterBrokerRequestHeader(brokerName, brokerAddr, "DefaultCluster", "", 0L, null, false, false,
                        0)).body(body).build(), TIMEOUT);
    }

    @Test
    void shouldDropBrokersThatStopRegistering() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4));
        clock.advance(Duration.ofSeconds(119));
        assertThat(nameServer.routes().expire(Duration.ofSeconds(120))).isZero();
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4)); // the periodic re-registration
        clock.advance(Duration.ofSeconds(119));
        assertThat(nameServer.routes().expire(Duration.ofSeconds(120))).isZero();
        assertThat(route("A").code()).isEqualTo(ResponseCode.SUCCESS);
        clock.advance(Duration.ofSeconds(2));
        assertThat(nameServer.routes().expire(Duration.ofSeconds(120))).isEqualTo(1);
        assertThat(route("A").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
        assertThat(nameServer.routes().clusterInfo().brokerAddrTable()).isEmpty();
    }

    @Test
    void shouldDropBrokersWhoseConnectionCloses() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4));
        broker.closeChannel(address);
        await().atMost(TIMEOUT).until(() -> nameServer.routes().route("A") == null);
    }

    @Test
    void shouldDropBrokersThatUnregister() {
        register("broker-a", "127.0.0.1:10911", 1, TopicConfig.of("A", 4));
        RemotingCommand response = broker.invokeSync(address, RemotingCommand.request(RequestCode.UNREGISTER_BROKER,
                new UnregisterBrokerRequestHeader("broker-a", "127.0.0.1:10911", "DefaultCluster", 0L)).build(), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.SUCCESS);
        assertThat(route("A").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    @Test
    void shouldRejectRegistrationWhoseBodyFailsItsChecksum() {
        byte[] body = json.encode(new RegisterBrokerBody(new TopicConfigSerializeWrapper(
                Map.of("A", TopicConfig.of("A", 4)), new DataVersion(0, 1, 1)), List.of()));
        RemotingCommand response = broker.invokeSync(address, RemotingCommand.request(RequestCode.REGISTER_BROKER,
                new RegisterBrokerRequestHeader("broker-a", "127.0.0.1:10911", "DefaultCluster", "", 0L, null, false,
                        false, 12345)).body(body).build(), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).isEqualTo("crc32 not match");
        assertThat(route("A").code()).isEqualTo(ResponseCode.TOPIC_NOT_EXIST);
    }

    @Test
    void shouldAnswerMalformedRegistrationWithSystemError() {
        RemotingCommand response = broker.invokeSync(address, RemotingCommand.request(RequestCode.REGISTER_BROKER,
                new RegisterBrokerRequestHeader("broker-a", "127.0.0.1:10911", "DefaultCluster", "", 0L, null, false,
                        false, null)).body("{not json".getBytes(java.nio.charset.StandardCharsets.UTF_8)).build(), TIMEOUT);
        assertThat(response.code()).isEqualTo(ResponseCode.SYSTEM_ERROR);
        assertThat(response.remark()).contains("malformed RegisterBrokerBody");
    }
}
