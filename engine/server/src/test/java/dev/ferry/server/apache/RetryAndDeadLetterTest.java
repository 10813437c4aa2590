package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.format.DelayLevels;
import dev.ferry.store.MessageStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A message a listener rejects comes back later, and after its last attempt goes to the group's DLQ. */
@Tag("integration")
class RetryAndDeadLetterTest {
    /** Level 3 (the first retry) waits 1 s, level 4 (the second) 2 s. */
    private static final DelayLevels LEVELS = DelayLevels.parse("1s 1s 1s 2s");

    @TempDir
    Path dir;

    private record Delivery(long atMillis, MessageExt message) {
    }

    private FerryServerFixture server() {
        return new FerryServerFixture(FerryServerFixture.small(dir).delayLevels(LEVELS).build());
    }

    @Test
    @SuppressWarnings("deprecation") // the producer's viewMessage is the admin call tools use
    void shouldRedeliverARejectedMessageWithGrowingDelaysThenMoveItToTheDeadLetterQueue() throws Exception {
        try (FerryServerFixture ferry = server(); ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            // The topic and the retry topic exist before the consumer starts, so it reads both at once.
            ApacheClients.announceGroup(ferry, "CG_RETRY");
            DefaultMQProducer producer = clients.producer("PG_RETRY");
            Message message = new Message("TopicRetry", "TagR", "retry-key", "fails".getBytes(StandardCharsets.UTF_8));
            message.putUserProperty("color", "red");
            SendResult sent = producer.send(message);

            List<Delivery> deliveries = new CopyOnWriteArrayList<>();
            DefaultMQPushConsumer consumer = clients.pushConsumer("CG_RETRY");
            consumer.subscribe("TopicRetry", "*");
            consumer.setMaxReconsumeTimes(2);
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                messages.forEach(m -> deliveries.add(new Delivery(System.currentTimeMillis(), m)));
                return ConsumeConcurrentlyStatus.RECONSUME_LATER;
            });
            clients.start(consumer);
            MessageStore store = ferry.server().broker().store();
            await().atMost(Duration.ofSeconds(30)).until(() -> store.nextOffset("%DLQ%CG_RETRY", 0) == 1);

            assertThat(deliveries).extracting(d -> d.message().getReconsumeTimes()).containsExactly(0, 1, 2);
            for (Delivery delivery : deliveries) {
                MessageExt m = delivery.message();
                assertThat(m.getTopic()).isEqualTo("TopicRetry");
                assertThat(m.getMsgId()).isEqualTo(sent.getMsgId());
                assertThat(m.getKeys()).isEqualTo("retry-key");
                assertThat(m.getTags()).isEqualTo("TagR");
                assertThat(m.getUserProperty("color")).isEqualTo("red");
                assertThat(new String(m.getBody(), StandardCharsets.UTF_8)).isEqualTo("fails");
            }
            assertThat(deliveries.get(1).message().getProperty("RETRY_TOPIC")).isEqualTo("TopicRetry");
            assertThat(deliveries.get(1).message().getProperty("ORIGIN_MESSAGE_ID")).isNotBlank();
            assertThat(deliveries.get(1).atMillis() - deliveries.get(0).atMillis()).isGreaterThanOrEqualTo(1000);
            assertThat(deliveries.get(2).atMillis() - deliveries.get(1).atMillis()).isGreaterThanOrEqualTo(2000);

            MessageExt dead = producer.viewMessage("%DLQ%CG_RETRY", store.messageAt(
                    lastPhysicalOffset(store, "%DLQ%CG_RETRY")).orElseThrow().offsetMessageId());
            assertThat(dead.getReconsumeTimes()).isEqualTo(3);
            assertThat(dead.getProperty("RETRY_TOPIC")).isEqualTo("TopicRetry");
            assertThat(dead.getUserProperty("color")).isEqualTo("red");
            // Its only copy is in the DLQ, which the group does not read: nothing more arrives.
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> deliveries.size() == 3);
        }
    }

    @Test
    void shouldSendDirectRetrySendsPastTheLimitToTheDeadLetterQueue() throws Exception {
        try (FerryServerFixture ferry = server(); ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_DIRECT_RETRY");
            // What a consumer sends itself when CONSUMER_SEND_MSG_BACK fails: the attempt count in properties.
            MessageQueue retryQueue = new MessageQueue("%RETRY%CG_DIRECT", "broker-a", 0);
            producer.send(retry("%RETRY%CG_DIRECT", 3, 2), retryQueue);
            producer.send(retry("%RETRY%CG_DIRECT", 1, 2), retryQueue);

            MessageStore store = ferry.server().broker().store();
            await().atMost(Duration.ofSeconds(15)).until(() -> store.nextOffset("%DLQ%CG_DIRECT", 0) == 1
                    && store.nextOffset("%RETRY%CG_DIRECT", 0) == 1);
            assertThat(store.messageAt(lastPhysicalOffset(store, "%DLQ%CG_DIRECT")).orElseThrow().reconsumeTimes())
                    .isEqualTo(3);
        }
    }

    private static Message retry(String topic, int reconsumeTimes, int maxReconsumeTimes) {
        Message message = new Message(topic, "T", ("attempt " + reconsumeTimes).getBytes(StandardCharsets.UTF_8));
        MessageAccessor.setReconsumeTime(message, Integer.toString(reconsumeTimes));
        MessageAccessor.setMaxReconsumeTimes(message, Integer.toString(maxReconsumeTimes));
        message.setDelayTimeLevel(1);
        return message;
    }

    private static long lastPhysicalOffset(MessageStore store, String topic) {
        return store.getMessages(topic, 0, store.nextOffset(topic, 0) - 1, 1, 1 << 20,
                dev.ferry.store.MessageFilterPredicate.ALL).views().get(0).physicalOffset();
    }
}
