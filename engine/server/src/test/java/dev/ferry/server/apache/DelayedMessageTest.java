package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.format.DelayLevels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Delay levels: a delayed message arrives once its level's delay has passed, never before, also across a restart. */
@Tag("integration")
class DelayedMessageTest {
    /** How late a delivery may be: the broker looks every 100 ms, then the long poll answers. */
    private static final long LATENESS_BOUND_MILLIS = 2_500;

    @TempDir
    Path dir;

    private FerryServerConfig config() {
        return FerryServerFixture.small(dir).delayLevels(DelayLevels.parse("1s 2s 3s")).build();
    }

    private static Message delayed(String key, int level) {
        Message message = new Message("TopicDelay", "T", key, key.getBytes(StandardCharsets.UTF_8));
        message.setDelayTimeLevel(level);
        return message;
    }

    private static DefaultMQPushConsumer consumer(ApacheClients clients, Map<String, Long> received)
            throws Exception {
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_DELAY");
        consumer.subscribe("TopicDelay", "*");
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            messages.forEach(m -> received.putIfAbsent(m.getKeys(), System.currentTimeMillis()));
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        return clients.start(consumer);
    }

    @Test
    void shouldDeliverDelayedMessagesAfterTheirLevelsDelayAndClampLevelsAboveTheHighest() throws Exception {
        try (FerryServerFixture ferry = new FerryServerFixture(config());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_DELAY");
            producer.send(new Message("TopicDelay", "T", "now", new byte[] {1}));
            Map<String, Long> received = new ConcurrentHashMap<>();
            consumer(clients, received);
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("now"));

            long sentTwo = System.currentTimeMillis();
            producer.send(delayed("two-seconds", 2));
            long sentClamped = System.currentTimeMillis();
            producer.send(delayed("clamped-to-three", 9));
            await().atMost(Duration.ofSeconds(15)).until(() -> received.size() == 3);

            assertThat(received.get("two-seconds") - sentTwo).isBetween(2_000L, 2_000L + LATENESS_BOUND_MILLIS);
            assertThat(received.get("clamped-to-three") - sentClamped)
                    .isBetween(3_000L, 3_000L + LATENESS_BOUND_MILLIS);
        }
    }

    @Test
    void shouldKeepDelayedMessagesAcrossARestart() throws Exception {
        long sent;
        try (FerryServerFixture ferry = new FerryServerFixture(config());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_DELAY");
            sent = System.currentTimeMillis();
            producer.send(delayed("survivor", 3));
        }
        assertThat(dir.resolve("config").resolve("delayOffset.json")).exists();
        try (FerryServerFixture ferry = new FerryServerFixture(config());
             ApacheClients clients = new ApacheClients(ferry.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_DELAY");
            producer.send(new Message("TopicDelay", "T", "after-restart", new byte[] {1}));
            Map<String, Long> received = new ConcurrentHashMap<>();
            consumer(clients, received);
            await().atMost(Duration.ofSeconds(30)).until(() -> received.containsKey("survivor"));
            assertThat(received.get("survivor") - sent).isGreaterThanOrEqualTo(3_000L);
            assertThat(Files.readString(dir.resolve("config").resolve("delayOffset.json"))).contains("offsetTable");
        }
    }
}
