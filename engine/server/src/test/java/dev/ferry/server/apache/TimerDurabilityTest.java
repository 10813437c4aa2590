package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timer messages in a ferry-server process with synchronous flush, sent and consumed by Apache 5.3.3's clients: a
 * SIGKILL while they fire and a clean restart while others wait lose none and deliver none twice or early.
 * Deliveries are stored messages, so "twice" is counted in the topic itself, not in what a consumer happened to
 * receive again.
 */
class TimerDurabilityTest {
    private static final String TOPIC = "TopicTimerDurable";
    private static final int TIMERS = 3_000;
    private static final long FIRST_DUE_MS = 5_000;
    private static final long SPREAD_MS = 12_000;
    private static final long MIN_WAIT_MS = 2_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS) // the server's output stays when the test fails
    Path dir;

    @Test
    void shouldDeliverEveryAcknowledgedTimerOnceAndNoneEarlyAcrossASigkillWhileFiringAndACleanRestart()
            throws Exception {
        int[] ports = FerryServerProcess.freePorts(2);
        Path store = dir.resolve("store");
        Path config = dir.resolve("sync-flush.properties");
        Files.writeString(config, "flushDiskType=SYNC_FLUSH\n");
        String[] syncFlush = {"--config", config.toString()};
        Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        Deliveries deliveries = new Deliveries();
        FerryServerProcess server = FerryServerProcess.start(store, ports[0], ports[1], syncFlush);
        try (ApacheClients clients = new ApacheClients(server.nameServer())) {
            DefaultMQProducer producer = clients.producer("PG_TIMER_DURABLE");
            // the topic exists before the consumer subscribes, so its first rebalance finds the queues
            assertThat(producer.send(new Message(TOPIC, "probe".getBytes(StandardCharsets.UTF_8))).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
            clients.start(deliveries.listening(clients.pushConsumer("CG_TIMER_DURABLE")));
            sendTimers(producer, acknowledged);
            assertThat(acknowledged).as("timer sends acknowledged").hasSize(TIMERS);

            // a slot's timers arrive together: this many lands inside a slot's deliveries, not between two slots
            await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> deliveries.keys() >= TIMERS * 3 / 10);
            server.kill();
            assertThat(deliveries.keys()).as("timers delivered when the server was killed").isLessThan(TIMERS);

            server = FerryServerProcess.start(store, ports[0], ports[1], syncFlush);
            System.out.println("after the SIGKILL: " + server.awaitLine("timer store: firing from", 10));
            await().atMost(WAIT).until(() -> deliveries.keys() >= TIMERS * 2 / 3);
            server.stopGracefully();
            assertThat(deliveries.keys()).as("timers delivered when the server was stopped").isLessThan(TIMERS);

            server = FerryServerProcess.start(store, ports[0], ports[1], syncFlush);
            System.out.println("after the clean restart: " + server.awaitLine("timer store: firing from", 10));
            await().atMost(WAIT).untilAsserted(() -> assertThat(deliveries.byKey.keySet())
                    .containsAll(acknowledged.keySet()));
            // nothing more is written to the topic once every timer has fired: one stored message each, and the probe
            long latestDue = acknowledged.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            await().atMost(WAIT).until(() -> System.currentTimeMillis() > latestDue + 2_000);
            DefaultMQAdminExt admin = ApacheClients.admin(server.nameServer());
            try {
                await().atMost(WAIT).during(Duration.ofSeconds(2)).until(() -> storedInTopic(admin) == TIMERS + 1);
            } finally {
                admin.shutdown();
            }

            assertThat(deliveries.problems).as("deliveries before their time or without timer properties").isEmpty();
            assertThat(deliveries.byKey.keySet()).as("keys delivered").isEqualTo(acknowledged.keySet());
            assertThat(deliveries.byKey).as("stored deliveries of each timer").allSatisfy((key, stored) ->
                    assertThat(stored).as(key).hasSize(1));
            deliveries.assertNoneBefore(acknowledged);
        } finally {
            server.close();
        }
    }

    /**
     * Sends the timers from several threads (each send waits for its flush), due over the coming seconds and each at
     * least a little after its send, however slowly the sends go.
     */
    private static void sendTimers(DefaultMQProducer producer, Map<String, Long> acknowledged) throws Exception {
        long base = System.currentTimeMillis() + FIRST_DUE_MS;
        ExecutorService senders = Executors.newFixedThreadPool(12);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < TIMERS; i++) {
                String key = "timer-" + i;
                long planned = base + i * SPREAD_MS / TIMERS;
                sent.add(senders.submit(() -> {
                    long due = Math.max(planned, System.currentTimeMillis() + MIN_WAIT_MS);
                    Message message = new Message(TOPIC, "T", key, key.getBytes(StandardCharsets.UTF_8));
                    message.setDeliverTimeMs(due);
                    if (producer.send(message).getSendStatus() == SendStatus.SEND_OK) {
                        acknowledged.put(key, due);
                    }
                    return null;
                }));
            }
            for (Future<?> future : sent) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            senders.shutdownNow();
        }
    }

    private static long storedInTopic(DefaultMQAdminExt admin) throws Exception {
        return admin.examineTopicStats(TOPIC).getOffsetTable().values().stream()
                .mapToLong(offsets -> offsets.getMaxOffset() - offsets.getMinOffset()).sum();
    }

    /** What a push consumer of the topic received: per key the stored messages (queue and offset) that carried it. */
    static final class Deliveries {
        final Map<String, Set<String>> byKey = new ConcurrentHashMap<>();
        final Map<String, Long> firstStored = new ConcurrentHashMap<>();
        final Map<String, Long> firstReceived = new ConcurrentHashMap<>();
        final Queue<String> problems = new ConcurrentLinkedQueue<>();

        DefaultMQPushConsumer listening(DefaultMQPushConsumer consumer) throws Exception {
            consumer.subscribe(TOPIC, "T");
            consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
                long now = System.currentTimeMillis();
                messages.forEach(message -> record(message, now));
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
            return consumer;
        }

        private void record(MessageExt message, long receivedMs) {
            String key = message.getKeys();
            byKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(message.getQueueId() + "@" + message.getQueueOffset());
            firstStored.merge(key, message.getStoreTimestamp(), Math::min);
            firstReceived.merge(key, receivedMs, Math::min);
            String timerOut = message.getProperty("TIMER_OUT_MS");
            if (timerOut == null || message.getProperty("TIMER_ENQUEUE_MS") == null
                    || message.getProperty("TIMER_DEQUEUE_MS") == null) {
                problems.add(key + " without its timer properties: " + message.getProperties());
            } else if (message.getStoreTimestamp() < Long.parseLong(timerOut)) {
                problems.add(key + " stored at " + message.getStoreTimestamp() + ", before TIMER_OUT_MS " + timerOut);
            }
        }

        int keys() {
            return byKey.size();
        }

        /** Neither stored nor received before the time its sender asked for. */
        void assertNoneBefore(Map<String, Long> due) {
            assertThat(due).allSatisfy((key, dueMs) -> {
                assertThat(firstStored.get(key)).as("%s stored", key).isGreaterThanOrEqualTo(dueMs);
                assertThat(firstReceived.get(key)).as("%s received", key).isGreaterThanOrEqualTo(dueMs);
            });
        }
    }
}
