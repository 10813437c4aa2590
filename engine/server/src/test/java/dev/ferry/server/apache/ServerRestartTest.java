package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** ferry-server as a process: ready line, clean SIGTERM stop, and what survives a restart or a SIGKILL. */
@Tag("integration")
class ServerRestartTest {
    @TempDir
    Path dir;

    private static DefaultMQProducer producer(String nameServer) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer("PG_RESTART");
        producer.setNamesrvAddr(nameServer);
        producer.setInstanceName("restart" + System.nanoTime());
        producer.start();
        return producer;
    }

    private static List<String> send(DefaultMQProducer producer, String topic, int from, int to) throws Exception {
        List<String> acknowledged = new ArrayList<>();
        for (int i = from; i < to; i++) {
            SendResult result = producer.send(new Message(topic, "T", "m" + i,
                    ("message " + i).getBytes(StandardCharsets.UTF_8)));
            if (result.getSendStatus() == SendStatus.SEND_OK) {
                acknowledged.add("m" + i);
            }
        }
        return acknowledged;
    }

    /** Consumes with a group until {@code expected} arrived; returns everything it received. */
    private static Set<String> consume(String nameServer, String group, String topic, Set<String> expected)
            throws Exception {
        Set<String> received = ConcurrentHashMap.newKeySet();
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(nameServer);
        consumer.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
        consumer.setInstanceName(group + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // a listener that recorded a key may not have returned yet: its offset counts only once it has, and by
        // default Apache's shutdown commits the offsets without waiting for it
        consumer.setAwaitTerminationMillisWhenShutdown(10_000);
        consumer.subscribe(topic, "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.add(m.getKeys()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> received.containsAll(expected));
        } finally {
            consumer.shutdown(); // commits its offsets to the broker
        }
        return received;
    }

    @Test
    void shouldKeepMessagesOffsetsAndTopicsAcrossAGracefulRestart() throws Exception {
        int[] ports = FerryServerProcess.freePorts(2);
        Path store = dir.resolve("store");
        List<String> firstBatch;
        try (FerryServerProcess server = FerryServerProcess.start(store, ports[0], ports[1])) {
            DefaultMQProducer producer = producer(server.nameServer());
            firstBatch = send(producer, "TopicRestart", 0, 30);
            producer.shutdown();
            consume(server.nameServer(), "CG_RESTART", "TopicRestart", Set.copyOf(firstBatch));
            server.stopGracefully();
        }
        try (FerryServerProcess server = FerryServerProcess.start(store, ports[0], ports[1])) {
            DefaultMQProducer producer = producer(server.nameServer());
            List<String> secondBatch = send(producer, "TopicRestart", 30, 40);
            producer.shutdown();
            Set<String> received = consume(server.nameServer(), "CG_RESTART", "TopicRestart", Set.copyOf(secondBatch));
            // the group resumes after its committed offsets: nothing of the first batch again
            assertThat(received).containsExactlyInAnyOrderElementsOf(secondBatch);
            // and the messages themselves are still there for a new group
            Set<String> all = new java.util.HashSet<>(firstBatch);
            all.addAll(secondBatch);
            assertThat(consume(server.nameServer(), "CG_FRESH", "TopicRestart", all)).containsAll(all);
            server.stopGracefully();
        }
    }

    @Test
    void shouldServeEveryAcknowledgedMessageAfterASigkill() throws Exception {
        int[] ports = FerryServerProcess.freePorts(2);
        Path store = dir.resolve("store");
        List<String> acknowledged;
        try (FerryServerProcess server = FerryServerProcess.start(store, ports[0], ports[1])) {
            DefaultMQProducer producer = producer(server.nameServer());
            acknowledged = send(producer, "TopicKill", 0, 100);
            producer.shutdown();
            server.kill();
        }
        assertThat(acknowledged).hasSize(100);
        try (FerryServerProcess server = FerryServerProcess.start(store, ports[0], ports[1])) {
            Set<String> received = consume(server.nameServer(), "CG_KILL", "TopicKill", Set.copyOf(acknowledged));
            assertThat(received).containsAll(acknowledged);
        }
    }
}
