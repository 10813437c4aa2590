package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.remoting.protocol.header.GetMaxOffsetRequestHeader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry and Apache RocketMQ 5.3.3 in one cluster, each process on its own: a Ferry broker registers with an Apache
 * name server beside an Apache broker, and an Apache broker registers with a Ferry name server beside a Ferry
 * broker. Either way the cluster lists both, a topic made on both spreads over them, and Apache's and Ferry's
 * clients send to both and consume every message from both.
 */
@Tag("integration")
class MixedClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int MESSAGES = 200;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' logs stay when a test fails
    Path dir;

    @Test
    void shouldServeApacheClientsFromAFerryBrokerRegisteredWithAnApacheNameServer() throws Exception {
        try (ClusterNode nameServer = ClusterNode.apacheNameServer(dir, "apache-ns");
             ClusterNode apacheBroker = ClusterNode.apacheBroker(dir, "apache-a", "Mixed", nameServer.address());
             ClusterNode ferryBroker = ClusterNode.broker(dir, "ferry-b", "Mixed", nameServer.address())) {
            sendAndConsumeAcross(nameServer.address(), apacheBroker, ferryBroker);
        }
    }

    @Test
    void shouldRegisterAnApacheBrokerWithAFerryNameServer() throws Exception {
        try (ClusterNode nameServer = ClusterNode.nameServer(dir, "ferry-ns");
             ClusterNode apacheBroker = ClusterNode.apacheBroker(dir, "apache-a", "Mixed", nameServer.address());
             ClusterNode ferryBroker = ClusterNode.broker(dir, "ferry-b", "Mixed", nameServer.address())) {
            sendAndConsumeAcross(nameServer.address(), apacheBroker, ferryBroker);
        }
    }

    @Test
    void shouldReplicateAnApacheMasterToAFerrySlaveThatServesItsMessagesOnceTheMasterIsGone() throws Exception {
        String topic = "FromApache";
        try (ClusterNode nameServer = ClusterNode.apacheNameServer(dir, "apache-ns");
             ClusterNode master = ClusterNode.apacheBroker(dir, "apache-a", "Mixed", nameServer.address());
             // the same commit-log files as the Apache master's: offsets map to files alike on both
             ClusterNode slave = ClusterNode.broker(dir, "ferry-slave", "apache-a", "Mixed", nameServer.address(),
                     Map.of("brokerRole", "SLAVE", "brokerId", "1", "slaveSyncInterval", "500ms",
                             "commitLogSegmentSize", Integer.toString(ApacheNodeMain.COMMIT_LOG_SIZE)));
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(nameServer.address());
             RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build())) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(admin.clusterInfo().getBrokerAddrTable()
                    .get("apache-a").getBrokerAddrs()).containsEntry(0L, master.address())
                    .containsEntry(1L, slave.address()));
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 4, 4));
            DefaultMQProducer producer = ApacheClients.producer(nameServer.address(), "from-apache-producer");
            Set<String> sent = new HashSet<>();
            try {
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(new org.apache.rocketmq.common.message.Message(topic,
                            ("replicated-" + i).getBytes(StandardCharsets.UTF_8)));
                    sent.add("replicated-" + i);
                }
            } finally {
                producer.shutdown();
            }
            // asynchronous replication: the slave's queues catch up with the master's
            await().atMost(WAIT).untilAsserted(() -> {
                for (int queue = 0; queue < 4; queue++) {
                    assertThat(maxOffset(raw, slave.address(), topic, queue)).as("queue %d on the slave", queue)
                            .isEqualTo(maxOffset(raw, master.address(), topic, queue));
                }
            });
            master.kill();

            Map<String, String> consumed = new ConcurrentHashMap<>();
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(nameServer.address(), "from-apache", topic,
                    consumed::put);
            try {
                await().atMost(WAIT).untilAsserted(() -> assertThat(consumed.keySet())
                        .as("consumed from the Ferry slave").containsExactlyInAnyOrderElementsOf(sent));
            } finally {
                consumer.shutdown();
            }
        }
    }

    static long maxOffset(RemotingClient raw, String address, String topic, int queue) {
        RemotingCommand response = raw.invokeSync(address, RemotingCommand.request(RequestCode.GET_MAX_OFFSET,
                new GetMaxOffsetRequestHeader(topic, queue, null, "apache-a")).build(), Duration.ofSeconds(3));
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return Long.parseLong(response.extFields().get("offset"));
    }

    private void sendAndConsumeAcross(String nameServer, ClusterNode apacheBroker, ClusterNode ferryBroker)
            throws Exception {
        String topic = "Mixed" + System.nanoTime() % 100_000;
        try (ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(nameServer)) {
            await().atMost(WAIT).untilAsserted(() -> {
                ClusterInfo info = admin.clusterInfo();
                assertThat(info.getClusterAddrTable().get("Mixed")).containsExactlyInAnyOrder("apache-a", "ferry-b");
                assertThat(info.getBrokerAddrTable().get("apache-a").getBrokerAddrs())
                        .containsEntry(0L, apacheBroker.address());
                assertThat(info.getBrokerAddrTable().get("ferry-b").getBrokerAddrs())
                        .containsEntry(0L, ferryBroker.address());
            });
            for (ClusterNode broker : List.of(apacheBroker, ferryBroker)) {
                admin.apache().createAndUpdateTopicConfig(broker.address(), new TopicConfig(topic, 4, 4));
            }
            await().atMost(WAIT).untilAsserted(() ->
                    assertThat(admin.apache().examineTopicRouteInfo(topic).getBrokerDatas()).hasSize(2));
        }

        Map<String, String> apacheConsumed = new ConcurrentHashMap<>();
        Map<String, String> ferryConsumed = new ConcurrentHashMap<>();
        DefaultMQPushConsumer apacheConsumer = ApacheClients.pushConsumer(nameServer, "mixed-apache", topic,
                apacheConsumed::put);
        DefaultMQProducer apacheProducer = ApacheClients.producer(nameServer, "mixed-apache-producer");
        try (FerryClient client = new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1")
                .localOffsetDirectory(dir.resolve("offsets")).build())) {
            PushConsumer ferryConsumer = client.pushConsumer(PushConsumerConfig.builder("mixed-ferry")
                    .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    message -> ferryConsumed.put(new String(message.body(), StandardCharsets.UTF_8),
                            message.brokerName()));
            Producer ferryProducer = client.producer(ProducerConfig.builder("mixed-ferry-producer").build());
            Map<String, String> sentTo = new TreeMap<>();
            for (int i = 0; i < MESSAGES; i++) {
                SendResult apacheResult = apacheProducer.send(new org.apache.rocketmq.common.message.Message(topic,
                        ("apache-" + i).getBytes(StandardCharsets.UTF_8)));
                sentTo.put("apache-" + i, apacheResult.getMessageQueue().getBrokerName());
                dev.ferry.api.SendResult ferryResult = ferryProducer.send(Message.builder(topic)
                        .body(("ferry-" + i).getBytes(StandardCharsets.UTF_8)).build());
                sentTo.put("ferry-" + i, ferryResult.messageQueue().brokerName());
            }
            assertThat(Set.copyOf(sentTo.values())).as("brokers the sends went to")
                    .containsExactlyInAnyOrder("apache-a", "ferry-b");
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(apacheConsumed).as("what Apache's consumer got, and from which broker")
                        .containsExactlyInAnyOrderEntriesOf(sentTo);
                assertThat(ferryConsumed).as("what Ferry's consumer got, and from which broker")
                        .containsExactlyInAnyOrderEntriesOf(sentTo);
            });
            ferryConsumer.close();
        } finally {
            ClientShutdowns.together(apacheProducer::shutdown, apacheConsumer::shutdown);
        }
    }
}
