package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.testing.ClientShutdowns;
import dev.ferry.server.timer.TimerCheckpointBody;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timer messages sent to a SYNC_MASTER are copied to its slave, which indexes them and follows how far the master
 * fired. Once the master is killed and an operator restarts the slave as the group's master on its store, the slave
 * fires the timers the master had not delivered, none early, and none of those the master delivered again: counted
 * in the promoted broker's queues, where each delivery names the broker that stored it.
 */
@Tag("integration")
class TimerFailoverTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CLUSTER = "TimerCluster";
    private static final String GROUP = "broker-t";
    private static final String TOPIC = "TimerFailover";
    private static final int TIMERS = 600;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' logs stay when a test fails
    Path dir;

    @Test
    void shouldFireOnTheSlavePromotedByAnOperatorWhatTheKilledMasterHadNotDeliveredOnceAndNoneEarly()
            throws Exception {
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode master = ClusterNode.broker(dir, "master", GROUP, CLUSTER, ns.address(),
                     Map.of("brokerRole", "SYNC_MASTER"));
             ClusterNode slave = ClusterNode.broker(dir, "slave", GROUP, CLUSTER, ns.address(),
                     // its master's progress now and then: killed between two, the master has fired more
                     Map.of("brokerRole", "SLAVE", "brokerId", "1", "slaveSyncInterval", "2s"));
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address());
             RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build())) {
            ReplicationTest.awaitPair(admin, GROUP, master, slave);
            admin.apache().createAndUpdateTopicConfig(master.address(), new TopicConfig(TOPIC, TimerTraffic.QUEUES,
                    TimerTraffic.QUEUES));
            Map<String, MessageExt> seen = new ConcurrentHashMap<>();
            DefaultMQProducer producer = ApacheClients.producer(ns.address(), "timer-failover-producer");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(ns.address(), "timer-failover", TOPIC,
                    TimerTraffic.TAG, m -> seen.putIfAbsent(m.getKeys(), m));
            try {
                // a SYNC_MASTER acknowledges once its slave has the message: wait until it is connected
                await().atMost(WAIT).until(() -> producer.send(new Message(TOPIC, "probe".getBytes(
                        StandardCharsets.UTF_8))).getSendStatus() == SendStatus.SEND_OK);
                Map<String, Long> acknowledged = TimerTraffic.send(producer, TOPIC, "timer-", TIMERS, 4_000,
                        8_000);
                assertThat(acknowledged).as("timer sends acknowledged").hasSize(TIMERS);

                // killed while the slave still has the master's progress from before the last slot delivered (once
                // promoted it walks that slot again and must find what the master delivered of it), and has what the
                // consumer took from the master (later deliveries may be lost with the master, and fire again)
                Map<String, MessageExt> fromMaster = new HashMap<>();
                await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> {
                    fromMaster.clear();
                    fromMaster.putAll(seen);
                    return fromMaster.size() >= TIMERS / 3
                            && followedUpTo(raw, slave.address()) <= lastSlot(fromMaster.values())
                            && copied(raw, slave.address(), fromMaster.values());
                });
                master.kill();
                assertThat(seen.size()).as("timers delivered when the master was killed").isLessThan(TIMERS);

                slave.stop();
                slave.reconfigure(dir, Map.of("brokerRole", "ASYNC_MASTER", "brokerId", "0"));
                slave.start();
                System.out.println("promoted: " + slave.output(500).lines()
                        .filter(line -> line.contains("timer store: firing from")).findFirst().orElse("?"));
                await().atMost(WAIT).untilAsserted(() -> assertThat(seen.keySet())
                        .containsAll(acknowledged.keySet()));

                Map<String, MessageExt> contents = TimerTraffic.storedOnceDone(ns.address(), raw, slave.address(),
                        TOPIC, acknowledged);
                TimerTraffic.assertEachStoredOnceAndNotEarly(contents, acknowledged);
                Map<String, String> storedBy = new HashMap<>();
                contents.values().stream().filter(m -> m.getKeys() != null).forEach(m -> storedBy.put(m.getKeys(),
                        port(m) == port(master) ? "master" : port(m) == port(slave) ? "promoted"
                                : "elsewhere " + m.getStoreHost()));
                assertThat(storedBy.values()).as("which broker fired each").contains("master", "promoted")
                        .allMatch(by -> by.equals("master") || by.equals("promoted"));
                assertThat(fromMaster.keySet()).as("delivered by the master before the kill")
                        .allSatisfy(key -> assertThat(storedBy.get(key)).as(key).isEqualTo("master"));
                System.out.printf("timers fired by the master: %d (%d consumed before the kill), by the promoted "
                        + "slave: %d%n", storedBy.values().stream().filter("master"::equals).count(),
                        fromMaster.size(), storedBy.values().stream().filter("promoted"::equals).count());
            } finally {
                ClientShutdowns.together(consumer::shutdown, producer::shutdown);
            }
        }
    }

    /** The slot firing has reached as the (slave) broker at {@code address} knows it: GET_TIMER_CHECK_POINT. */
    private static long followedUpTo(RemotingClient raw, String address) {
        RemotingCommand response = raw.invokeSync(address, RemotingCommand.request(RequestCode.GET_TIMER_CHECK_POINT)
                .build(), Duration.ofSeconds(3));
        assertThat(response.code()).as(response.remark()).isEqualTo(ResponseCode.SUCCESS);
        return TimerCheckpointBody.decode(response.body()).orElseThrow().cursorMs();
    }

    /** The latest slot of these deliveries ({@code TIMER_OUT_MS}). */
    private static long lastSlot(Collection<MessageExt> deliveries) {
        return deliveries.stream().mapToLong(m -> Long.parseLong(m.getProperty("TIMER_OUT_MS"))).max().orElseThrow();
    }

    /** Whether the broker at {@code address} holds these deliveries (its queues reach as far). */
    private static boolean copied(RemotingClient raw, String address, Collection<MessageExt> deliveries) {
        Map<Integer, Long> reach = new HashMap<>();
        deliveries.forEach(m -> reach.merge(m.getQueueId(), m.getQueueOffset() + 1, Math::max));
        return reach.entrySet().stream().allMatch(queue -> MixedClusterTest.maxOffset(raw, address, TOPIC,
                queue.getKey()) >= queue.getValue());
    }

    private static int port(MessageExt message) {
        return ((InetSocketAddress) message.getStoreHost()).getPort();
    }

    private static int port(ClusterNode node) {
        return Integer.parseInt(node.address().substring(node.address().lastIndexOf(':') + 1));
    }
}
