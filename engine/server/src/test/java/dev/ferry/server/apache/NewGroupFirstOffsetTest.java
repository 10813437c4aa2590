package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.broker.FirstOffsetRule;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * A consumer group with no committed offset starts where Apache's would: at a young queue's first message (so what
 * was sent just before the group's consumer started is delivered), at the end of an old queue.
 */
@Tag("integration")
class NewGroupFirstOffsetTest {
    private static final int BEFORE = 12;
    private static final int AFTER = 12;

    @TempDir
    Path dir;

    enum Kind { CONCURRENT, ORDERLY, LITE_PULL }

    private static Set<String> keys(String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> prefix + i).collect(Collectors.toSet());
    }

    private static void send(DefaultMQProducer producer, String topic, Set<String> keys) throws Exception {
        for (String key : keys) {
            producer.send(new Message(topic, "TagA", key, key.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** Starts a consumer of {@code kind} from the last offset, adding what it receives to {@code received}. */
    private static DefaultMQPushConsumer startFromLast(ApacheClients clients, String nameServer, Kind kind,
                                                       String group, String topic, Set<String> received)
            throws Exception {
        if (kind == Kind.LITE_PULL) {
            DefaultLitePullConsumer lite = new DefaultLitePullConsumer(group);
            lite.setNamesrvAddr(nameServer);
            lite.setInstanceName(group + System.nanoTime());
            lite.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
            lite.subscribe(topic, "*");
            lite.start();
            Thread poller = new Thread(() -> {
                while (lite.isRunning()) {
                    lite.poll(200).forEach(m -> received.add(m.getKeys()));
                }
            }, "lite-poller");
            poller.setDaemon(true);
            poller.start();
            clients.onClose(lite::shutdown);
            return null;
        }
        DefaultMQPushConsumer consumer = clients.pushConsumer(group);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_LAST_OFFSET);
        consumer.subscribe(topic, "*");
        if (kind == Kind.ORDERLY) {
            consumer.registerMessageListener((MessageListenerOrderly) (messages, context) -> {
                messages.forEach(m -> received.add(m.getKeys()));
                return ConsumeOrderlyStatus.SUCCESS;
            });
        } else {
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.stream().map(MessageExt::getKeys).forEach(received::add);
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        }
        return clients.start(consumer);
    }

    /**
     * Waits until the name server routes {@code topic}: its consumer reads routes when it starts and then only every
     * 30 s, and a topic created by a send is announced by the broker's next registration.
     */
    private static void awaitRouted(FerryServerFixture ferry, String topic) {
        await().atMost(Duration.ofSeconds(30)).until(() -> ferry.server().nameServer().routes().route(topic) != null);
    }

    /**
     * The queues whose start the consumer has decided: its client puts a queue in this table once the broker has
     * answered the offset query, and Apache's client says so nowhere else.
     */
    @SuppressWarnings("deprecation")
    private static long queuesStarted(DefaultMQPushConsumer consumer, String topic) {
        // the group's retry topic's queue joins the table too, once its route is known
        return consumer.getDefaultMQPushConsumerImpl().getRebalanceImpl().getProcessQueueTable().keySet().stream()
                .filter(queue -> queue.getTopic().equals(topic)).count();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void shouldDeliverWhatWasSentToAYoungTopicJustBeforeANewGroupStartedFromTheLastOffset(Kind kind)
            throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(dir);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_YOUNG");
            String topic = "TopicYoung" + kind;
            Set<String> before = keys("before-", BEFORE);
            Set<String> after = keys("after-", AFTER);
            send(producer, topic, before);
            awaitRouted(ferry, topic);
            Set<String> received = ConcurrentHashMap.newKeySet();
            startFromLast(clients, ferry.nameServer(), kind, "CG_YOUNG_" + kind, topic, received);
            send(producer, topic, after);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(received).containsAll(before).containsAll(after));
        }
    }

    @Test
    void shouldStartANewGroupAtTheEndOfAnOldTopicWhoseFirstMessageIsNoLongerInMemory() throws Exception {
        // 40% of 64 KiB: a first message more than 26 KB from the commit log's end is no longer "in memory".
        FerryServerConfig config = FerryServerFixture.small(dir)
                .broker(b -> b.firstOffsetRule(new FirstOffsetRule(false, 40, 64 * 1024))).build();
        try (FerryServerFixture ferry = new FerryServerFixture(config);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_OLD");
            Set<String> before = keys("before-", BEFORE);
            send(producer, "TopicOld", before);
            byte[] filler = new byte[1024];
            for (int i = 0; i < 64; i++) {
                producer.send(new Message("TopicFiller", filler));
            }
            awaitRouted(ferry, "TopicOld");
            Set<String> received = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer consumer = startFromLast(clients, ferry.nameServer(), Kind.CONCURRENT, "CG_OLD",
                    "TopicOld", received);
            // Every queue's start is decided before anything more is sent.
            // a queue whose start failed (a timeout under load) is retried at the next rebalance, 20 s later
            await().atMost(Duration.ofSeconds(60)).until(() -> queuesStarted(consumer, "TopicOld") == 4);
            Set<String> after = keys("after-", AFTER);
            send(producer, "TopicOld", after);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(received).containsAll(after));
            assertThat(received).as("what was sent before the group started, as Apache's broker would")
                    .doesNotContainAnyElementsOf(before);
        }
    }

    @Test
    void shouldStartANewGroupAtTheEndOfEvenAYoungTopicUnderTheStrictRule() throws Exception {
        FerryServerConfig config = FerryServerFixture.small(dir)
                .broker(b -> b.firstOffsetRule(FirstOffsetRule.defaults().withStrict(true))).build();
        try (FerryServerFixture ferry = new FerryServerFixture(config);
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_STRICT");
            Set<String> before = keys("before-", BEFORE);
            send(producer, "TopicStrict", before);
            awaitRouted(ferry, "TopicStrict");
            Set<String> received = ConcurrentHashMap.newKeySet();
            DefaultMQPushConsumer consumer = startFromLast(clients, ferry.nameServer(), Kind.CONCURRENT,
                    "CG_STRICT", "TopicStrict", received);
            // a queue whose start failed (a timeout under load) is retried at the next rebalance, 20 s later
            await().atMost(Duration.ofSeconds(60)).until(() -> queuesStarted(consumer, "TopicStrict") == 4);
            Set<String> after = keys("after-", AFTER);
            send(producer, "TopicStrict", after);

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(received).containsAll(after));
            assertThat(received).doesNotContainAnyElementsOf(before);
        }
    }
}
