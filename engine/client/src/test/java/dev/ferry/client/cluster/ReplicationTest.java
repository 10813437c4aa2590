package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ferry.api.Message;
import dev.ferry.api.SendStatus;
import dev.ferry.client.ClientConfig;
import dev.ferry.client.ConsumeFromWhere;
import dev.ferry.client.FerryClient;
import dev.ferry.client.Producer;
import dev.ferry.client.ProducerConfig;
import dev.ferry.client.PushConsumer;
import dev.ferry.client.PushConsumerConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.body.BodyCodec;
import dev.ferry.remoting.protocol.header.QueryConsumerOffsetRequestHeader;
import dev.ferry.remoting.protocol.header.UpdateConsumerOffsetRequestHeader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * A master and a slave of one broker group, each a Ferry process: the slave copies the master's commit log over
 * Apache's HA protocol and its topics and offsets; a SYNC_MASTER acknowledges a send once the slave has it. Killing
 * the master and deleting its store loses no acknowledged message; consumers read from the slave meanwhile, and what
 * they commit there is kept when the master returns.
 */
@Tag("integration")
class ReplicationTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CLUSTER = "HaCluster";
    private static final String GROUP = "broker-r";
    private static final Map<String, String> SYNC_MASTER = Map.of("brokerRole", "SYNC_MASTER");
    private static final Map<String, String> SLAVE = Map.of("brokerRole", "SLAVE", "brokerId", "1",
            "slaveSyncInterval", "500ms");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' logs stay when a test fails
    Path dir;

    @Test
    void shouldConsumeEveryAcknowledgedMessageFromTheSlaveOnceTheSyncMasterIsKilledAndItsStoreDeleted()
            throws Exception {
        String topic = "Replicated";
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode master = ClusterNode.broker(dir, "master", GROUP, CLUSTER, ns.address(), SYNC_MASTER);
             ClusterNode slave = ClusterNode.broker(dir, "slave", GROUP, CLUSTER, ns.address(), SLAVE);
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address())) {
            awaitPair(admin, GROUP, master, slave);
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 4, 4));

            DefaultMQProducer apacheProducer = ApacheClients.producer(ns.address(), "ha-apache-producer");
            List<String> acknowledged = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger notAcknowledged = new AtomicInteger();
            try (FerryClient client = client(ns.address(), "producer")) {
                Producer ferryProducer = client.producer(ProducerConfig.builder("ha-ferry-producer").build());
                AtomicBoolean sending = new AtomicBoolean(true);
                List<Thread> senders = List.of(
                        sender("apache", sending, n -> apacheProducer.send(new org.apache.rocketmq.common.message
                                .Message(topic, utf8("apache-" + n))).getSendStatus().name(), acknowledged,
                                notAcknowledged),
                        sender("ferry", sending, n -> ferryProducer.send(Message.builder(topic).body(utf8("ferry-"
                                + n)).build()).status().name(), acknowledged, notAcknowledged));
                await().atMost(WAIT).until(() -> acknowledged.size() >= 1_000);
                master.kill();
                sending.set(false);
                for (Thread sender : senders) {
                    sender.join();
                }
            } finally {
                apacheProducer.shutdown();
            }
            deleteRecursively(master.storeDir(dir));

            Set<String> expected = Set.copyOf(acknowledged);
            Map<String, Integer> apacheConsumed = new ConcurrentHashMap<>();
            Map<String, Integer> ferryConsumed = new ConcurrentHashMap<>();
            DefaultMQPushConsumer apacheConsumer = ApacheClients.pushConsumer(ns.address(), "ha-apache", topic,
                    (body, broker) -> apacheConsumed.merge(body, 1, Integer::sum));
            try (FerryClient client = client(ns.address(), "consumer")) {
                PushConsumer ferryConsumer = client.pushConsumer(PushConsumerConfig.builder("ha-ferry")
                        .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                        message -> ferryConsumed.merge(utf8(message.body()), 1, Integer::sum));
                await().atMost(WAIT).untilAsserted(() -> {
                    assertThat(ferryConsumed.keySet()).as("acknowledged and consumed from the slave by Ferry's "
                            + "consumer").containsAll(expected);
                    assertThat(apacheConsumed.keySet()).as("acknowledged and consumed from the slave by Apache's "
                            + "consumer").containsAll(expected);
                });
                ferryConsumer.close();
            } finally {
                apacheConsumer.shutdown();
            }
            System.out.printf("SYNC_MASTER killed, its store deleted: %,d sends acknowledged, all consumed from the "
                    + "slave; %,d sends not acknowledged%n", expected.size(), notAcknowledged.get());
        }
    }

    @Test
    void shouldKeepOffsetsCommittedToTheSlaveWhenTheMasterReturns() throws Exception {
        String topic = "Resumed";
        int messages = 300;
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode master = ClusterNode.broker(dir, "master", GROUP, CLUSTER, ns.address(), SYNC_MASTER);
             ClusterNode slave = ClusterNode.broker(dir, "slave", GROUP, CLUSTER, ns.address(), SLAVE);
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address());
             FerryClient client = client(ns.address(), "both");
             RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build())) {
            awaitPair(admin, GROUP, master, slave);
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 4, 4));
            Producer producer = client.producer(ProducerConfig.builder("ha-resume-producer").build());
            await().atMost(WAIT).until(() -> producer.send(Message.builder(topic).body(utf8("probe")).build())
                    .status() == SendStatus.SEND_OK);
            for (int i = 0; i < messages; i++) {
                assertThat(producer.send(Message.builder(topic).body(utf8("m-" + i)).build()).status())
                        .isEqualTo(SendStatus.SEND_OK);
            }
            master.kill();

            Map<String, Integer> consumed = new ConcurrentHashMap<>();
            PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder("ha-resume")
                    .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                    message -> consumed.merge(utf8(message.body()), 1, Integer::sum));
            try {
                await().atMost(WAIT).until(() -> consumed.size() == messages + 1);
                // committed to the slave while the master is away
                await().atMost(WAIT).until(() -> committed(raw, slave.address(), topic, "ha-resume") == messages + 1);

                master.start(); // on its store
                await().atMost(WAIT).untilAsserted(() -> assertThat(committed(raw, master.address(), topic,
                        "ha-resume")).as("the master's offsets of the group, once it is back")
                        .isEqualTo(messages + 1));
                assertThat(consumed.values()).as("nothing consumed again").allMatch(count -> count == 1);
            } finally {
                consumer.close();
            }
        }
    }

    @Test
    void shouldAnswerSlaveNotAvailableWithoutASlaveAndFlushSlaveTimeoutWhenItStalls() throws Exception {
        String topic = "Unreplicated";
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode master = ClusterNode.broker(dir, "master", GROUP, CLUSTER, ns.address(), SYNC_MASTER);
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address());
             FerryClient client = client(ns.address(), "producer")) {
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 4, 4));
            DefaultMQProducer apacheProducer = ApacheClients.producer(ns.address(), "ha-apache-producer");
            try {
                // longer than the master's 5 s wait for its slave, so a stalled slave's answer arrives
                Producer producer = client.producer(ProducerConfig.builder("ha-alone-producer")
                        .sendTimeout(Duration.ofSeconds(15)).build());
                await().atMost(WAIT).untilAsserted(() -> assertThat(producer.send(Message.builder(topic)
                        .body(utf8("alone")).build()).status()).isEqualTo(SendStatus.SLAVE_NOT_AVAILABLE));
                assertThat(apacheProducer.send(new org.apache.rocketmq.common.message.Message(topic, utf8("alone")))
                        .getSendStatus()).isEqualTo(org.apache.rocketmq.client.producer.SendStatus
                        .SLAVE_NOT_AVAILABLE);

                try (ClusterNode slave = ClusterNode.broker(dir, "slave", GROUP, CLUSTER, ns.address(), SLAVE)) {
                    await().atMost(WAIT).until(() -> producer.send(Message.builder(topic).body(utf8("paired"))
                            .build()).status() == SendStatus.SEND_OK);
                    slave.pause(); // connected, silent
                    try {
                        assertThat(producer.send(Message.builder(topic).body(utf8("stalled")).build()).status())
                                .isEqualTo(SendStatus.FLUSH_SLAVE_TIMEOUT);
                    } finally {
                        slave.resume();
                    }
                    await().atMost(WAIT).until(() -> producer.send(Message.builder(topic).body(utf8("again"))
                            .build()).status() == SendStatus.SEND_OK);
                }
            } finally {
                apacheProducer.shutdown();
            }
        }
    }

    @Test
    void shouldCopyTheMastersTopicsGroupsConsumerOffsetsAndDelayProgressToTheSlave() throws Exception {
        String topic = "CopiedTopic";
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode master = ClusterNode.broker(dir, "master", GROUP, CLUSTER, ns.address(), SYNC_MASTER);
             ClusterNode slave = ClusterNode.broker(dir, "slave", GROUP, CLUSTER, ns.address(), SLAVE);
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address());
             FerryClient client = client(ns.address(), "copy");
             RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build())) {
            awaitPair(admin, GROUP, master, slave);
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(topic, 6, 6));
            SubscriptionGroupConfig group = new SubscriptionGroupConfig();
            group.setGroupName("copied-group");
            group.setRetryMaxTimes(3);
            admin.apache().createAndUpdateSubscriptionGroupConfig(master.address(), group);
            Producer producer = client.producer(ProducerConfig.builder("ha-copy-producer").build());
            await().atMost(WAIT).until(() -> producer.send(Message.builder(topic).body(utf8("m")).build())
                    .status() == SendStatus.SEND_OK);
            for (int i = 0; i < 9; i++) {
                producer.send(Message.builder(topic).body(utf8("m" + i)).build());
            }
            // a delayed message: once delivered, the master's progress on level 1 moves
            producer.send(Message.builder(topic).body(utf8("later")).delayLevel(1).build());
            RemotingCommand committed = raw.invokeSync(master.address(), RemotingCommand.request(
                    RequestCode.UPDATE_CONSUMER_OFFSET, new UpdateConsumerOffsetRequestHeader("copied-group", topic,
                            0, 1, GROUP)).build(), Duration.ofSeconds(3));
            assertThat(committed.code()).isEqualTo(ResponseCode.SUCCESS);

            await().atMost(WAIT).untilAsserted(() -> {
                JsonNode topics = tables(raw, slave.address(), RequestCode.GET_ALL_TOPIC_CONFIG);
                assertThat(topics.path("topicConfigTable").path(topic).path("readQueueNums").asInt()).isEqualTo(6);
                JsonNode groups = tables(raw, slave.address(), RequestCode.GET_ALL_SUBSCRIPTIONGROUP_CONFIG);
                assertThat(groups.path("subscriptionGroupTable").path("copied-group").path("retryMaxTimes").asInt())
                        .isEqualTo(3);
                JsonNode offsets = tables(raw, slave.address(), RequestCode.GET_ALL_CONSUMER_OFFSET);
                assertThat(offsets.path("offsetTable").path(topic + "@copied-group").path("0").asLong()).isEqualTo(1);
                JsonNode delays = tables(raw, slave.address(), RequestCode.GET_ALL_DELAY_OFFSET);
                assertThat(delays.path("offsetTable").path("1").asLong()).as("delay level 1's progress")
                        .isEqualTo(1);
            });
        }
    }

    /** A table of the broker at {@code address}, as its slaves fetch it. */
    private static JsonNode tables(RemotingClient raw, String address, int code) {
        RemotingCommand response = raw.invokeSync(address, RemotingCommand.request(code).build(),
                Duration.ofSeconds(3));
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return new BodyCodec().decode(response.body(), JsonNode.class);
    }

    /** Until the name server lists the master as id 0 and the slave as id 1 of broker group {@code brokerName}. */
    static void awaitPair(ClusterRolesTest.Admin admin, String brokerName, ClusterNode master, ClusterNode slave) {
        try {
            await().atMost(WAIT).untilAsserted(() -> {
                BrokerData group = admin.clusterInfo().getBrokerAddrTable().get(brokerName);
                assertThat(group).isNotNull();
                assertThat(group.getBrokerAddrs()).containsEntry(0L, master.address()).containsEntry(1L,
                        slave.address());
            });
        } catch (ConditionTimeoutException e) {
            // what each broker said of its registrations is the only trace of why one is missing
            throw new AssertionError(e.getMessage() + "\nmaster's output: " + master.output(40)
                    + "\nslave's output: " + slave.output(40), e);
        }
    }

    /** The sum of the group's committed offsets over the topic's four queues on the broker at {@code address}. */
    private static long committed(RemotingClient raw, String address, String topic, String group) {
        long sum = 0;
        for (int queue = 0; queue < 4; queue++) {
            RemotingCommand response;
            try {
                response = raw.invokeSync(address, RemotingCommand.request(RequestCode.QUERY_CONSUMER_OFFSET,
                        new QueryConsumerOffsetRequestHeader(group, topic, queue, null, GROUP)).build(),
                        Duration.ofSeconds(3));
            } catch (RuntimeException e) {
                return -1;
            }
            if (response.code() != ResponseCode.SUCCESS) {
                return -1;
            }
            sum += Long.parseLong(response.extFields().get("offset"));
        }
        return sum;
    }

    private FerryClient client(String nameServer, String name) {
        return new FerryClient(ClientConfig.builder(nameServer).clientIp("127.0.0.1").instanceName("ha-" + name)
                .routeRefreshInterval(Duration.ofSeconds(1)).offsetPersistInterval(Duration.ofMillis(500))
                .localOffsetDirectory(dir.resolve("offsets-" + name)).build());
    }

    /** A send returning its status' name, or throwing. */
    @FunctionalInterface
    private interface Send {
        String send(int n) throws Exception;
    }

    private static Thread sender(String name, AtomicBoolean sending, Send send, List<String> acknowledged,
                                 AtomicInteger notAcknowledged) {
        Thread thread = new Thread(() -> {
            for (int n = 0; sending.get(); n++) {
                try {
                    if (send.send(n).equals("SEND_OK")) {
                        acknowledged.add(name + "-" + n);
                    } else {
                        notAcknowledged.incrementAndGet();
                    }
                } catch (Exception e) {
                    notAcknowledged.incrementAndGet();
                }
            }
        }, "ha-" + name + "-sender");
        thread.start();
        return thread;
    }

    private static void deleteRecursively(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
        assertThat(root).doesNotExist();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
