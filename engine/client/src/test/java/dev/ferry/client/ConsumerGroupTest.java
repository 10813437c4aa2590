package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Consumer groups: clustering splits queues, broadcasting copies them, failures come back as retries. */
class ConsumerGroupTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(40);


    private static Message message(String topic, String text) {
        return Message.builder(topic).body(text.getBytes(StandardCharsets.UTF_8)).keys(text).build();
    }

    private static String text(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    @Test
    void shouldSplitQueuesBetweenTwoConsumersAndDeliverEachMessageOnce() {
        FerryClient first = newClient();
        FerryClient second = newClient();
        String topic = ClientTestSupport.unique("Split");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        producer.send(message(topic, "create"));

        List<String> received = new CopyOnWriteArrayList<>();
        PushConsumerConfig config = PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build();
        PushConsumer a = first.pushConsumer(config, m -> received.add("a:" + text(m)));
        PushConsumer b = second.pushConsumer(config, m -> received.add("b:" + text(m)));
        await().atMost(WAIT).until(() -> topicQueues(a, topic).size() == 2 && topicQueues(b, topic).size() == 2);
        assertThat(new HashSet<>(topicQueues(a, topic))).doesNotContainAnyElementsOf(topicQueues(b, topic));

        Set<String> sent = new HashSet<>();
        for (int i = 0; i < 40; i++) {
            sent.add("m" + i);
            producer.send(message(topic, "m" + i));
        }
        await().atMost(WAIT).until(() -> withoutCreate(received).size() >= 40);
        List<String> bodies = withoutCreate(received).stream().map(s -> s.substring(2)).toList();
        assertThat(bodies).hasSize(40).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(withoutCreate(received)).anyMatch(s -> s.startsWith("a:")).anyMatch(s -> s.startsWith("b:"));
        a.close();
        b.close();
    }

    private static List<String> withoutCreate(List<String> received) {
        return received.stream().filter(s -> !s.endsWith(":create")).toList();
    }

    private static List<MessageQueue> topicQueues(PushConsumer consumer, String topic) {
        return consumer.assignedQueues().stream().filter(q -> q.topic().equals(topic)).collect(Collectors.toList());
    }

    @Test
    void shouldDeliverEveryMessageToEveryBroadcastingConsumer() {
        FerryClient first = newClient();
        FerryClient second = newClient();
        String topic = ClientTestSupport.unique("Broadcast");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        for (int i = 0; i < 8; i++) {
            producer.send(message(topic, "m" + i));
        }
        PushConsumerConfig config = PushConsumerConfig.builder(group).subscribe(topic, "*")
                .messageModel(MessageModel.BROADCASTING).consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build();
        Set<String> toA = ConcurrentHashMap.newKeySet();
        Set<String> toB = ConcurrentHashMap.newKeySet();
        PushConsumer a = first.pushConsumer(config, m -> toA.add(text(m)));
        PushConsumer b = second.pushConsumer(config, m -> toB.add(text(m)));
        await().atMost(WAIT).until(() -> toA.size() == 8 && toB.size() == 8);
        assertThat(a.assignedQueues()).hasSize(4).isEqualTo(b.assignedQueues());
        a.close();
        b.close();
    }

    @Test
    void shouldRedeliverAMessageWhoseListenerFailed() {
        String topic = ClientTestSupport.unique("Retry");
        Producer producer = producer();
        producer.send(message(topic, "fail-once"));

        AtomicBoolean failed = new AtomicBoolean();
        List<ReceivedMessage> deliveries = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(), m -> {
                    deliveries.add(m);
                    if (failed.compareAndSet(false, true)) {
                        throw new IllegalStateException("not yet");
                    }
                });
        try {
            await().atMost(WAIT).until(() -> deliveries.size() == 2);
        } finally {
            consumer.close();
        }
        ReceivedMessage again = deliveries.get(1);
        assertThat(text(again)).isEqualTo("fail-once");
        assertThat(again.topic()).isEqualTo(topic);
        assertThat(again.reconsumeTimes()).isEqualTo(1);
        assertThat(again.msgId()).isEqualTo(deliveries.get(0).msgId());
    }

    @Test
    void shouldResumeWhereAClosedConsumerOfTheGroupStopped() {
        String topic = ClientTestSupport.unique("Resume");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        Set<MessageQueue> queues = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            queues.add(producer.send(message(topic, "old" + i)).messageQueue());
        }
        PushConsumerConfig config = PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build();
        List<String> first = new CopyOnWriteArrayList<>();
        PushConsumer consumer = newClient().pushConsumer(config, m -> first.add(text(m)));
        await().atMost(WAIT).until(() -> first.size() == 5);
        consumer.close();
        // Offsets travel oneway: wait until the broker answers queries with them before a new consumer starts.
        try (PullConsumer probe = client.pullConsumer(PullConsumerConfig.builder(group).build())) {
            await().atMost(WAIT).until(() -> queues.stream().mapToLong(q -> probe.committed(q).orElse(0)).sum() == 5);
        }

        for (int i = 0; i < 3; i++) {
            producer.send(message(topic, "new" + i));
        }
        List<String> second = new CopyOnWriteArrayList<>();
        PushConsumer next = newClient().pushConsumer(config, m -> second.add(text(m)));
        await().atMost(WAIT).until(() -> second.size() >= 3);
        next.close();
        assertThat(second).containsExactlyInAnyOrder("new0", "new1", "new2");
    }

    @Test
    void shouldKeepBroadcastingOffsetsInALocalFileAcrossRestarts() {
        String topic = ClientTestSupport.unique("BroadcastResume");
        String group = ClientTestSupport.unique("CG");
        String instance = ClientTestSupport.unique("stable");
        Producer producer = producer();
        for (int i = 0; i < 4; i++) {
            producer.send(message(topic, "old" + i));
        }
        PushConsumerConfig config = PushConsumerConfig.builder(group).subscribe(topic, "*")
                .messageModel(MessageModel.BROADCASTING).consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build();
        List<String> first = new CopyOnWriteArrayList<>();
        try (FerryClient restartable = broadcastClient(instance)) {
            restartable.pushConsumer(config, m -> first.add(text(m)));
            await().atMost(WAIT).until(() -> first.size() == 4);
        }
        assertThat(directory.resolve("127.0.0.1@" + instance).resolve(group).resolve("offsets.json")).exists();

        producer.send(message(topic, "new"));
        List<String> second = new CopyOnWriteArrayList<>();
        try (FerryClient restarted = broadcastClient(instance)) {
            restarted.pushConsumer(config, m -> second.add(text(m)));
            await().atMost(WAIT).until(() -> !second.isEmpty());
        }
        assertThat(second).containsExactly("new");
    }

    private FerryClient broadcastClient(String instanceName) {
        return new FerryClient(ClientConfig.builder(cluster.nameServerAddress()).clientIp("127.0.0.1")
                .instanceName(instanceName).localOffsetDirectory(directory).build());
    }
}
