package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import dev.ferry.format.RoundBudget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Four push consumers of one group, one of them stopped and a new one started every couple of seconds while
 * 75,000 messages flow (200,000 with the long test budget): every message is consumed at least once, and few twice (a queue that moves is
 * consumed by its new owner from the offset its old owner committed on the way out).
 */
class ChurnTest extends AgainstCluster {
    private static final int MESSAGES = RoundBudget.rounds(75_000, 200_000);
    /** Rounds that must happen while messages flow: one per two seconds of sending. */
    private static final int LEAST_ROUNDS = RoundBudget.rounds(3, 5);
    private static final int BATCH = 100;
    /** 100 messages every 10 ms (20 s for 200,000): long enough for several stop/start rounds. */
    private static final long BATCH_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final Duration CHURN_INTERVAL = Duration.ofMillis(2_000);
    private static final int CONSUMERS = 4;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // 20 s of sending, then up to three minutes for the last deliveries
    void shouldConsumeEveryMessageWithFewDuplicatesWhileConsumersComeAndGo() throws Exception {
        String topic = ClientTestSupport.unique("Churn");
        String group = ClientTestSupport.unique("CG");
        Producer producer = producer();
        producer.send(Message.builder(topic).body(utf8("create the topic")).build());

        Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
        Set<String> sent = ConcurrentHashMap.newKeySet();
        PushConsumer[] consumers = new PushConsumer[CONSUMERS];
        FerryClient[] clients = new FerryClient[CONSUMERS];
        for (int i = 0; i < CONSUMERS; i++) {
            clients[i] = newClient();
            consumers[i] = start(clients[i], topic, group, deliveries);
        }

        AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                send(producer, topic, sent);
            } catch (RuntimeException | Error e) {
                sendFailure.set(e);
            }
        }, "churn-sender");
        sender.start();

        int rounds = 0;
        while (sender.isAlive()) {
            sender.join(CHURN_INTERVAL.toMillis());
            int slot = rounds++ % CONSUMERS;
            consumers[slot].close();
            clients[slot].close();
            clients[slot] = newClient();
            consumers[slot] = start(clients[slot], topic, group, deliveries);
        }
        assertThat(sendFailure.get()).as("the sender's failure").isNull();
        assertThat(sent).hasSize(MESSAGES);
        assertThat(rounds).as("stop/start rounds while messages flowed").isGreaterThanOrEqualTo(LEAST_ROUNDS);

        try {
            await().atMost(Duration.ofMinutes(3)).until(() -> deliveries.keySet().containsAll(sent));
        } finally {
            for (PushConsumer consumer : consumers) {
                consumer.close();
            }
        }
        long duplicates = sent.stream().mapToLong(id -> deliveries.get(id).get() - 1L).sum();
        double ratio = (double) duplicates / MESSAGES;
        String figure = String.format(Locale.ROOT, "churn against %s: %d stop/start rounds, %,d messages, %,d"
                + " duplicate deliveries (%.3f%%)", cluster, rounds, MESSAGES, duplicates, ratio * 100);
        System.out.println(figure);
        assertThat(ratio).as(figure).isLessThan(0.01);
    }

    /** Sends every message in batches of 100 every 10 ms, collecting the message ids. */
    private static void send(Producer producer, String topic, Set<String> sent) {
        long next = System.nanoTime();
        for (int b = 0; b < MESSAGES / BATCH; b++) {
            List<Message> batch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                batch.add(Message.builder(topic).body(utf8("churn " + (b * BATCH + i))).build());
            }
            sent.addAll(producer.send(batch).msgIds());
            next += BATCH_INTERVAL_NANOS;
            LockSupport.parkNanos(next - System.nanoTime());
        }
    }

    private static PushConsumer start(FerryClient client, String topic, String group,
                                      Map<String, AtomicInteger> deliveries) {
        return client.pushConsumer(PushConsumerConfig.builder(group).subscribe(topic, "*")
                .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).build(),
                message -> deliveries.computeIfAbsent(message.msgId(), k -> new AtomicInteger()).incrementAndGet());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
