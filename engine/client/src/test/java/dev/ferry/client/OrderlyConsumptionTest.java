package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Orderly push consumers: queue order per sharding key, broker locks, in-place retries. */
class OrderlyConsumptionTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(40);

    private static Message message(String topic, String text) {
        return Message.builder(topic).body(text.getBytes(StandardCharsets.UTF_8)).build();
    }

    @Test
    void shouldDeliverTheMessagesOfEachShardingKeyInSendOrder() {
        String topic = ClientTestSupport.unique("Orderly");
        Producer producer = producer();
        List<String> keys = List.of("order-1", "order-2", "order-3");
        for (int i = 0; i < 10; i++) {
            for (String key : keys) {
                producer.send(message(topic, key + ":" + i), key);
            }
        }
        Map<String, List<Integer>> received = new ConcurrentHashMap<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true)
                .consumeThreads(4).build(), m -> {
                    String[] parts = new String(m.body(), StandardCharsets.UTF_8).split(":");
                    received.computeIfAbsent(parts[0], k -> new CopyOnWriteArrayList<>())
                            .add(Integer.parseInt(parts[1]));
                });
        try {
            await().atMost(WAIT).until(() -> received.values().stream().mapToInt(List::size).sum() == 30);
        } finally {
            consumer.close();
        }
        List<Integer> inOrder = IntStream.range(0, 10).boxed().toList();
        keys.forEach(key -> assertThat(received.get(key)).as(key).isEqualTo(inOrder));
    }

    @Test
    void shouldRetryAFailedMessageBeforeTheMessagesAfterIt() {
        String topic = ClientTestSupport.unique("OrderlyRetry");
        Producer producer = producer();
        for (int i = 0; i < 3; i++) {
            producer.send(message(topic, "m" + i), "one-key");
        }
        AtomicBoolean failed = new AtomicBoolean();
        List<String> deliveries = new CopyOnWriteArrayList<>();
        PushConsumer consumer = client.pushConsumer(PushConsumerConfig.builder(ClientTestSupport.unique("CG"))
                .subscribe(topic, "*").consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeOrderly(true)
                .build(), m -> {
                    String text = new String(m.body(), StandardCharsets.UTF_8);
                    deliveries.add(text);
                    if (text.equals("m1") && failed.compareAndSet(false, true)) {
                        throw new IllegalStateException("not yet");
                    }
                });
        try {
            await().atMost(WAIT).until(() -> deliveries.size() == 4);
        } finally {
            consumer.close();
        }
        assertThat(deliveries).containsExactly("m0", "m1", "m1", "m2");
    }
}
