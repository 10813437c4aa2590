package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker config files of Apache RocketMQ 5.3.3's distribution ({@code conf/2m-noslave}, {@code 2m-2s-async},
 * {@code 2m-2s-sync}; the keys and values they set, in test resources) start Ferry brokers, each a
 * {@code ferry-server broker --config FILE} process given only its name servers, port and directory, that form the
 * cluster the files describe: every broker registered under its name, id and role, each slave following its master,
 * and a message sent to a master readable.
 */
@Tag("integration")
class ApacheBrokerFilesTest {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String CLUSTER = "DefaultCluster";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' logs stay when a test fails
    Path dir;

    @Test
    void shouldFormTwoMastersFromTheNoSlaveFiles() throws Exception {
        try (Cluster cluster = start("2m-noslave")) {
            cluster.awaitFormed();
            cluster.sendAndRead("NoSlaveTopic");
        }
    }

    @Test
    void shouldPairEachAsyncMasterWithASlaveCopyingItsTopicsFromThe2m2sAsyncFiles() throws Exception {
        try (Cluster cluster = start("2m-2s-async")) {
            cluster.awaitFormed();
            cluster.sendAndRead("AsyncTopic");
            cluster.awaitSlavesHaveTopic("AsyncTopic");
            // a file naming its role ASYNC_MASTER opens the HA port after the broker's, as Apache's does
            cluster.awaitSlavesHaveMessagesOf("AsyncTopic");
        }
    }

    @Test
    void shouldAcknowledgeSendsOnlyOnceTheSlaveHasThemFromThe2m2sSyncFiles() throws Exception {
        try (Cluster cluster = start("2m-2s-sync")) {
            cluster.awaitFormed();
            // SEND_OK from a SYNC_MASTER means its slave reported having the message
            cluster.sendAndRead("SyncTopic");
            cluster.awaitSlavesHaveTopic("SyncTopic");
            cluster.awaitSlavesHaveMessagesOf("SyncTopic");
        }
    }

    private Cluster start(String set) throws Exception {
        Path files = resource("/apache-broker-conf/" + set);
        List<Path> brokerFiles;
        try (Stream<Path> list = Files.list(files)) {
            brokerFiles = list.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
        }
        Cluster cluster = new Cluster(ClusterNode.nameServer(dir, "ns"));
        try {
            for (Path file : brokerFiles) {
                String node = file.getFileName().toString().replace(".properties", "");
                Properties keys = new Properties();
                keys.load(new java.io.StringReader(Files.readString(file, StandardCharsets.UTF_8)));
                cluster.add(ClusterNode.brokerFromApacheFile(dir, node, file, cluster.ns.address()), keys);
            }
            cluster.admin = new ClusterRolesTest.Admin(cluster.ns.address());
        } catch (Exception | AssertionError e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(ApacheBrokerFilesTest.class.getResource(name).toURI());
    }

    /** The name server, the brokers with the keys their files set, and an admin client. */
    private static final class Cluster implements AutoCloseable {
        final ClusterNode ns;
        final List<ClusterNode> brokers = new ArrayList<>();
        final Map<ClusterNode, Properties> files = new HashMap<>();
        ClusterRolesTest.Admin admin;

        Cluster(ClusterNode ns) {
            this.ns = ns;
        }

        void add(ClusterNode broker, Properties file) {
            brokers.add(broker);
            files.put(broker, file);
        }

        ClusterNode node(String name) {
            return brokers.stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
        }

        /** Each broker listed under its file's cluster, name and id, and telling its file's role. */
        void awaitFormed() throws Exception {
            try {
                await().atMost(WAIT).untilAsserted(() -> {
                    var info = admin.clusterInfo();
                    assertThat(info.getClusterAddrTable()).containsOnlyKeys(CLUSTER);
                    assertThat(info.getClusterAddrTable().get(CLUSTER)).containsExactlyInAnyOrder("broker-a",
                            "broker-b");
                    for (ClusterNode broker : brokers) {
                        Properties file = files.get(broker);
                        BrokerData group = info.getBrokerAddrTable().get(file.getProperty("brokerName"));
                        assertThat(group).as(broker.name()).isNotNull();
                        assertThat(group.getBrokerAddrs()).as(broker.name())
                                .containsEntry(Long.parseLong(file.getProperty("brokerId")), broker.address());
                    }
                });
                for (ClusterNode broker : brokers) {
                    Properties running = admin.apache().getBrokerConfig(broker.address());
                    assertThat(running.getProperty("brokerRole")).as(broker.name())
                            .isEqualTo(files.get(broker).getProperty("brokerRole"));
                    assertThat(running.getProperty("fileReservedTime")).as(broker.name()).isEqualTo("48");
                    assertThat(running.getProperty("deleteWhen")).as(broker.name()).isEqualTo("04");
                    assertThat(running.getProperty("flushDiskType")).as(broker.name()).isEqualTo("ASYNC_FLUSH");
                }
            } catch (ConditionTimeoutException e) {
                StringBuilder outputs = new StringBuilder(e.getMessage());
                brokers.forEach(b -> outputs.append("\n").append(b.name()).append("'s output: ")
                        .append(b.output(30)));
                throw new AssertionError(outputs.toString(), e);
            }
        }

        /** Creates {@code topic} on every master, sends to it until SEND_OK, and reads the message back by id. */
        void sendAndRead(String topic) throws Exception {
            for (ClusterNode broker : brokers) {
                if (!"SLAVE".equals(files.get(broker).getProperty("brokerRole"))) {
                    admin.apache().createAndUpdateTopicConfig(broker.address(), new TopicConfig(topic, 4, 4));
                }
            }
            DefaultMQProducer producer = ApacheClients.producer(ns.address(), "apache-files-" + topic);
            try {
                byte[] body = ("from an Apache file's cluster: " + topic).getBytes(StandardCharsets.UTF_8);
                SendResult[] sent = new SendResult[1];
                await().atMost(WAIT).until(() -> {
                    sent[0] = producer.send(new Message(topic, body));
                    return sent[0].getSendStatus() == SendStatus.SEND_OK;
                });
                MessageExt read = admin.apache().viewMessage(topic, sent[0].getMsgId());
                assertThat(read.getBody()).isEqualTo(body);
            } finally {
                producer.shutdown();
            }
        }

        /** Every slave has copied {@code topic} from its master. */
        void awaitSlavesHaveTopic(String topic) {
            for (ClusterNode broker : brokers) {
                if ("SLAVE".equals(files.get(broker).getProperty("brokerRole"))) {
                    await().atMost(WAIT).untilAsserted(() -> assertThat(admin.apache()
                            .getAllTopicConfig(broker.address(), 3_000).getTopicConfigTable())
                            .as(broker.name()).containsKey(topic));
                }
            }
        }

        /** Every slave's queues of {@code topic} reach as far as its master's: the messages were replicated. */
        void awaitSlavesHaveMessagesOf(String topic) {
            RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build());
            try {
                for (ClusterNode slave : brokers) {
                    Properties file = files.get(slave);
                    if (!"SLAVE".equals(file.getProperty("brokerRole"))) {
                        continue;
                    }
                    ClusterNode master = brokers.stream().filter(b -> !"SLAVE".equals(files.get(b)
                            .getProperty("brokerRole")) && files.get(b).getProperty("brokerName")
                            .equals(file.getProperty("brokerName"))).findFirst().orElseThrow();
                    await().atMost(WAIT).untilAsserted(() -> {
                        long onMaster = 0;
                        long onSlave = 0;
                        for (int queue = 0; queue < 4; queue++) {
                            onMaster += MixedClusterTest.maxOffset(raw, master.address(), topic, queue);
                            onSlave += MixedClusterTest.maxOffset(raw, slave.address(), topic, queue);
                        }
                        assertThat(onSlave).as(slave.name()).isEqualTo(onMaster);
                    });
                }
            } finally {
                raw.close();
            }
        }

        @Override
        public void close() {
            try {
                if (admin != null) {
                    admin.close();
                }
            } catch (Exception e) {
                throw new IllegalStateException("closing the admin client", e);
            } finally {
                brokers.forEach(ClusterNode::close);
                ns.close();
            }
        }
    }
}
