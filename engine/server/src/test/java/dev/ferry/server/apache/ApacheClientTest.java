package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.apache.rocketmq.remoting.protocol.heartbeat.MessageModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The unmodified Apache rocketmq-client 5.3.3 against a ferry-server. */
@Tag("integration")
class ApacheClientTest {
    @TempDir
    Path dir;
    private FerryServerFixture ferry;
    private final List<AutoCloseable> clients = new ArrayList<>();

    @BeforeEach
    void start() {
        ferry = new FerryServerFixture(dir);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable client : clients) {
            client.close();
        }
        ferry.close();
    }

    private DefaultMQProducer producer(String group) throws Exception {
        DefaultMQProducer producer = new DefaultMQProducer(group);
        producer.setNamesrvAddr(ferry.nameServer());
        producer.setInstanceName(group + System.nanoTime());
        producer.start();
        clients.add(producer::shutdown);
        return producer;
    }

    private DefaultMQPushConsumer pushConsumer(String group, String topic, String tags,
                                               Map<String, MessageExt> received) throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(ferry.nameServer());
        consumer.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
        consumer.setInstanceName(group + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, tags);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.put(m.getKeys(), m));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        clients.add(consumer::shutdown);
        return consumer;
    }

    private static Message message(String topic, String tags, String key, String body) {
        Message message = new Message(topic, tags, key, body.getBytes(StandardCharsets.UTF_8));
        message.putUserProperty("color", "blue-" + key);
        return message;
    }

    @Test
    void shouldDeliverSyncAsyncOnewayAndBatchSendsToATagFilteredPushConsumer() throws Exception {
        DefaultMQProducer producer = producer("PG_SENDS");
        SendResult first = producer.send(message("TopicSends", "TagA", "k0", "sync"));
        assertThat(first.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(first.getOffsetMsgId()).hasSize(32);

        CompletableFuture<SendResult> async = new CompletableFuture<>();
        producer.send(message("TopicSends", "TagB", "k1", "async"), new SendCallback() {
            @Override
            public void onSuccess(SendResult sendResult) {
                async.complete(sendResult);
            }

            @Override
            public void onException(Throwable e) {
                async.completeExceptionally(e);
            }
        });
        assertThat(async.get(10, TimeUnit.SECONDS).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        producer.sendOneway(message("TopicSends", "TagA", "k2", "oneway"));
        SendResult batch = producer.send(List.of(message("TopicSends", "TagB", "k3", "batch 0"),
                message("TopicSends", "TagC", "k4", "batch 1"), message("TopicSends", "TagA", "k5", "batch 2")));
        assertThat(batch.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        assertThat(batch.getOffsetMsgId().split(",")).hasSize(3);

        Map<String, MessageExt> received = new ConcurrentHashMap<>();
        pushConsumer("CG_TAGS", "TopicSends", "TagA || TagB", received);
        await().atMost(Duration.ofSeconds(30)).until(() -> received.size() >= 5);
        assertThat(received.keySet()).containsExactlyInAnyOrder("k0", "k1", "k2", "k3", "k5");
        MessageExt sync = received.get("k0");
        assertThat(new String(sync.getBody(), StandardCharsets.UTF_8)).isEqualTo("sync");
        assertThat(sync.getTags()).isEqualTo("TagA");
        assertThat(sync.getUserProperty("color")).isEqualTo("blue-k0");
        assertThat(sync.getMsgId()).isEqualTo(first.getMsgId());
        assertThat(new String(received.get("k5").getBody(), StandardCharsets.UTF_8)).isEqualTo("batch 2");
    }

    @Test
    void shouldSplitAFourQueueTopicBetweenTwoConsumersOfOneGroup() throws Exception {
        DefaultMQProducer producer = producer("PG_SPLIT");
        producer.send(message("TopicSplit", "T", "warmup", "creates the topic"));
        Map<String, MessageExt> first = new ConcurrentHashMap<>();
        Map<String, MessageExt> second = new ConcurrentHashMap<>();
        Queue<String> deliveries = new ConcurrentLinkedQueue<>();
        DefaultMQPushConsumer a = pushConsumer("CG_SPLIT", "TopicSplit", "*", first, deliveries);
        DefaultMQPushConsumer b = pushConsumer("CG_SPLIT", "TopicSplit", "*", second, deliveries);
        // both see both members before the real traffic starts
        await().atMost(Duration.ofSeconds(30)).until(() -> assigned(a, "TopicSplit") == 2
                && assigned(b, "TopicSplit") == 2);
        for (int i = 0; i < 200; i++) {
            producer.send(message("TopicSplit", "T", "s" + i, "split " + i));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> keysStartingWith(first, second, "s") == 200);
        assertThat(first).isNotEmpty();
        assertThat(second).isNotEmpty();
        // the warmup message may come to both: its queue changed hands while its offset was being committed
        assertThat(first.keySet()).filteredOn(k -> k.startsWith("s"))
                .doesNotContainAnyElementsOf(second.keySet());
        Set<Integer> queuesOfA = queuesOf(first);
        Set<Integer> queuesOfB = queuesOf(second);
        assertThat(queuesOfA).doesNotContainAnyElementsOf(queuesOfB);
        assertThat(deliveries).filteredOn(k -> k.startsWith("s")).as("sent once the group was split: each once")
                .hasSize(200);
    }

    @SuppressWarnings("deprecation") // the only view of a push consumer's assigned queues
    private static int assigned(DefaultMQPushConsumer consumer, String topic) {
        return (int) consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet()
                .stream().filter(mq -> mq.getTopic().equals(topic)).count();
    }

    private static long keysStartingWith(Map<String, MessageExt> a, Map<String, MessageExt> b, String prefix) {
        return java.util.stream.Stream.concat(a.keySet().stream(), b.keySet().stream())
                .filter(k -> k.startsWith(prefix)).distinct().count();
    }

    private static Set<Integer> queuesOf(Map<String, MessageExt> received) {
        Set<Integer> queues = new java.util.HashSet<>();
        received.values().stream().filter(m -> m.getKeys().startsWith("s")).forEach(m -> queues.add(m.getQueueId()));
        return queues;
    }

    private DefaultMQPushConsumer pushConsumer(String group, String topic, String tags,
                                               Map<String, MessageExt> received, Queue<String> deliveries)
            throws Exception {
        DefaultMQPushConsumer consumer = new DefaultMQPushConsumer(group);
        consumer.setNamesrvAddr(ferry.nameServer());
        consumer.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
        consumer.setInstanceName(group + System.nanoTime());
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe(topic, tags);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> {
                received.put(m.getKeys(), m);
                deliveries.add(m.getKeys());
            });
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        consumer.start();
        clients.add(consumer::shutdown);
        return consumer;
    }

    @Test
    void shouldDeliverEverythingToEachBroadcastingConsumer() throws Exception {
        DefaultMQProducer producer = producer("PG_BCAST");
        producer.send(message("TopicBcast", "T", "warmup", "creates the topic"));
        List<Map<String, MessageExt>> received = List.of(new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        List<DefaultMQPushConsumer> consumers = new ArrayList<>();
        for (Map<String, MessageExt> sink : received) {
            DefaultMQPushConsumer consumer = new DefaultMQPushConsumer("CG_BCAST");
            consumer.setNamesrvAddr(ferry.nameServer());
            consumer.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
            consumer.setInstanceName("bcast" + System.nanoTime());
            consumer.setMessageModel(MessageModel.BROADCASTING);
            consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
            consumer.subscribe("TopicBcast", "*");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> sink.put(m.getKeys(), m));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            consumer.start();
            clients.add(consumer::shutdown);
            consumers.add(consumer);
        }
        for (int i = 0; i < 50; i++) {
            producer.send(message("TopicBcast", "T", "b" + i, "broadcast " + i));
        }
        for (Map<String, MessageExt> sink : received) {
            await().atMost(Duration.ofSeconds(30)).until(() -> sink.keySet().stream()
                    .filter(k -> k.startsWith("b")).count() == 50);
        }
    }

    @Test
    @SuppressWarnings("deprecation") // commitSync() is what lite-pull applications call
    void shouldResumeALitePullGroupAfterItsCommittedOffset() throws Exception {
        DefaultMQProducer producer = producer("PG_LITE");
        for (int i = 0; i < 20; i++) {
            producer.send(message("TopicLite", "T", "l" + i, "lite " + i), new MessageQueue("TopicLite",
                    "broker-a", 0));
        }
        DefaultLitePullConsumer first = litePull("CG_LITE");
        List<String> seen = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            first.poll(500).forEach(m -> seen.add(m.getKeys()));
            return seen.size() >= 20;
        });
        assertThat(seen).hasSize(20);
        first.commitSync();
        first.shutdown();
        for (int i = 20; i < 30; i++) {
            producer.send(message("TopicLite", "T", "l" + i, "lite " + i), new MessageQueue("TopicLite",
                    "broker-a", 0));
        }
        DefaultLitePullConsumer second = litePull("CG_LITE");
        List<String> resumed = new ArrayList<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            second.poll(500).forEach(m -> resumed.add(m.getKeys()));
            return resumed.size() >= 10;
        });
        assertThat(resumed).containsExactlyElementsOf(java.util.stream.IntStream.range(20, 30)
                .mapToObj(i -> "l" + i).toList());
    }

    private DefaultLitePullConsumer litePull(String group) throws Exception {
        DefaultLitePullConsumer consumer = new DefaultLitePullConsumer(group);
        consumer.setNamesrvAddr(ferry.nameServer());
        consumer.setHeartbeatBrokerInterval(1000); // a rebalance can skip a heartbeat; the next one comes soon
        consumer.setInstanceName(group + System.nanoTime());
        consumer.setAutoCommit(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        consumer.subscribe("TopicLite", "*");
        consumer.start();
        clients.add(consumer::shutdown);
        return consumer;
    }
}
