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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ferry and Apache RocketMQ 5.3.3 in one cluster, each process on its own: a Ferry broker registers with an Apache
 * name server beside an Apache broker, and an Apache broker registers with a Ferry name server beside a Ferry
 * broker. Either way the cluster lists both, a topic made on both spreads over them, and Apache's and Ferry's
 * clients send to both and consume every message from both.
 */
class MixedClusterTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int MESSAGES = 200;

    @TempDir
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
        DefaultMQProducer apacheProducer = new DefaultMQProducer("mixed-apache-producer");
        apacheProducer.setNamesrvAddr(nameServer);
        apacheProducer.setInstanceName("mixed-" + System.nanoTime());
        apacheProducer.start();
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
            apacheProducer.shutdown();
            apacheConsumer.shutdown();
        }
    }
}
