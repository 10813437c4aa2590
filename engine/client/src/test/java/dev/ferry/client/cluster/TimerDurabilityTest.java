package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.RemotingClientConfig;
import dev.ferry.remoting.endpoint.RemotingClient;
import dev.ferry.remoting.testing.ClientShutdowns;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
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
 * Timer messages in a {@code ferry-server broker} process writing with SYNC_FLUSH, sent and consumed by Apache
 * 5.3.3's clients: a SIGKILL while they fire and a clean restart while others wait lose none, and deliver none twice
 * or before its time.
 */
@Tag("integration")
class TimerDurabilityTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String GROUP = "broker-d";
    private static final String TOPIC = "TimerDurable";
    private static final int TOGETHER = 1_500;
    private static final int SPREAD = 1_500;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the processes' logs stay when a test fails
    Path dir;

    @Test
    void shouldDeliverEveryAcknowledgedTimerOnceAndNoneEarlyAcrossASigkillWhileFiringAndACleanRestart()
            throws Exception {
        try (ClusterNode ns = ClusterNode.nameServer(dir, "ns");
             ClusterNode broker = ClusterNode.broker(dir, GROUP, "DurableCluster", ns.address()); // SYNC_FLUSH
             ClusterRolesTest.Admin admin = new ClusterRolesTest.Admin(ns.address());
             RemotingClient raw = new RemotingClient(RemotingClientConfig.builder().build())) {
            admin.apache().createAndUpdateTopicConfig(broker.address(), new TopicConfig(TOPIC, TimerTraffic.QUEUES,
                    TimerTraffic.QUEUES));
            Map<String, Long> received = new ConcurrentHashMap<>();
            DefaultMQProducer producer = ApacheClients.producer(ns.address(), "timer-durable-producer");
            DefaultMQPushConsumer consumer = ApacheClients.pushConsumer(ns.address(), "timer-durable", TOPIC,
                    TimerTraffic.TAG, m -> received.putIfAbsent(m.getKeys(), System.currentTimeMillis()));
            try {
                await().atMost(WAIT).until(() -> producer.send(new Message(TOPIC, "probe".getBytes(
                        StandardCharsets.UTF_8))).getSendStatus() == SendStatus.SEND_OK);
                // one slot of many (more than one batch of deliveries), then timers due one after another
                Map<String, Long> acknowledged = new HashMap<>(TimerTraffic.send(producer, TOPIC, "together-",
                        TOGETHER, 9_000, 0));
                acknowledged.putAll(TimerTraffic.send(producer, TOPIC, "spread-", SPREAD, 11_000, 10_000));
                assertThat(acknowledged).as("timer sends acknowledged").hasSize(TOGETHER + SPREAD);

                // killed while the crowded slot's deliveries are written: watched in the broker's queues, which a
                // consumer lags behind
                await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).until(() -> TimerTraffic.storedOn(raw,
                        broker.address(), TOPIC) >= TOGETHER / 3);
                broker.kill();
                assertThat(received.size()).as("timers delivered when the broker was killed").isLessThan(TOGETHER);

                broker.start();
                System.out.println("after the SIGKILL: " + recovery(broker));
                await().atMost(WAIT).until(() -> received.size() >= TOGETHER + SPREAD / 2);
                broker.stop();
                assertThat(received.size()).as("timers delivered when the broker was stopped")
                        .isLessThan(TOGETHER + SPREAD);

                broker.start();
                System.out.println("after the clean restart: " + recovery(broker));
                await().atMost(WAIT).untilAsserted(() -> assertThat(received.keySet())
                        .containsAll(acknowledged.keySet()));

                Map<String, MessageExt> contents = TimerTraffic.storedOnceDone(ns.address(), raw, broker.address(),
                        TOPIC, acknowledged);
                TimerTraffic.assertEachStoredOnceAndNotEarly(contents, acknowledged);
                assertThat(acknowledged).as("received no earlier than asked").allSatisfy((key, due) ->
                        assertThat(received.get(key)).as(key).isGreaterThanOrEqualTo(due));
            } finally {
                ClientShutdowns.together(consumer::shutdown, producer::shutdown);
            }
        }
    }

    /** What the timer store said when the broker started: where it fires from, what it found delivered. */
    private static String recovery(ClusterNode broker) {
        return broker.output(500).lines().filter(line -> line.contains("timer store: firing from")).findFirst()
                .orElse("?");
    }
}
