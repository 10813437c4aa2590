package dev.ferry.client.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.remoting.endpoint.RemotingClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;

/**
 * Timer messages as the timer tests send them and find them stored, with Apache 5.3.3's clients. A delivery is a
 * stored message: "delivered twice" is counted in the topic's queues, not in what a consumer happened to receive
 * again.
 */
final class TimerTraffic {
    /** The timers' tag: a consumer of it sees the deliveries, not the probes sent before them. */
    static final String TAG = "T";
    /** Queues of the timer tests' topics. */
    static final int QUEUES = 4;
    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Each timer is due at least this long after its send, however slowly the sends go. */
    private static final long MIN_WAIT_MS = 2_000;

    private TimerTraffic() {
    }

    /**
     * Sends {@code count} timers (keys {@code keys}0, {@code keys}1, ...) from several threads, due from
     * {@code firstDueMs} from now over {@code spreadMs}; returns the due time of each acknowledged one by key.
     */
    static Map<String, Long> send(DefaultMQProducer producer, String topic, String keys, int count, long firstDueMs,
                                  long spreadMs) throws Exception {
        Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        long base = System.currentTimeMillis() + firstDueMs;
        ExecutorService senders = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String key = keys + i;
                long planned = base + i * spreadMs / count;
                sent.add(senders.submit(() -> {
                    long due = Math.max(planned, System.currentTimeMillis() + MIN_WAIT_MS);
                    Message message = new Message(topic, TAG, key, key.getBytes(StandardCharsets.UTF_8));
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
        return acknowledged;
    }

    /**
     * Once every timer is past due and the topic on the broker at {@code address} has stopped growing, everything
     * stored in its queues, read by a new group through {@code nameServer}, by queue and offset.
     */
    static Map<String, MessageExt> storedOnceDone(String nameServer, RemotingClient raw, String address,
                                                  String topic, Map<String, Long> due) {
        long latestDue = due.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        await().atMost(WAIT).until(() -> System.currentTimeMillis() > latestDue + 2_000);
        AtomicLong stored = new AtomicLong(-1);
        await().atMost(WAIT).during(Duration.ofSeconds(2)).until(() -> {
            long now = storedOn(raw, address, topic);
            return stored.getAndSet(now) == now;
        });
        Map<String, MessageExt> contents = new ConcurrentHashMap<>();
        DefaultMQPushConsumer reader;
        try {
            reader = ApacheClients.pushConsumer(nameServer, "audit-" + System.nanoTime(), topic, "*",
                    m -> contents.putIfAbsent(m.getQueueId() + "@" + m.getQueueOffset(), m));
        } catch (Exception e) {
            throw new IllegalStateException("cannot start a consumer", e);
        }
        try {
            await().atMost(WAIT).until(() -> contents.size() == stored.get());
        } finally {
            reader.shutdown();
        }
        return contents;
    }

    /** Messages stored in the topic's queues on the broker at {@code address}. */
    static long storedOn(RemotingClient raw, String address, String topic) {
        long sum = 0;
        for (int queue = 0; queue < QUEUES; queue++) {
            sum += MixedClusterTest.maxOffset(raw, address, topic, queue);
        }
        return sum;
    }

    /**
     * Each timer in {@code due} stored exactly once among {@code contents}, not before its time nor its slot, and with
     * the properties a fired message carries; nothing else stored but probes (no key).
     */
    static void assertEachStoredOnceAndNotEarly(Map<String, MessageExt> contents, Map<String, Long> due) {
        Map<String, Integer> perKey = new ConcurrentHashMap<>();
        contents.values().stream().filter(m -> m.getKeys() != null).forEach(m -> perKey.merge(m.getKeys(), 1,
                Integer::sum));
        assertThat(perKey).as("stored deliveries of each timer").containsOnlyKeys(due.keySet())
                .allSatisfy((key, count) -> assertThat(count).as(key).isEqualTo(1));
        assertThat(contents.values()).filteredOn(m -> m.getKeys() != null).as("timer deliveries").allSatisfy(m -> {
            assertThat(m.getProperty("TIMER_ENQUEUE_MS")).as("%s TIMER_ENQUEUE_MS", m.getKeys()).isNotNull();
            assertThat(m.getProperty("TIMER_DEQUEUE_MS")).as("%s TIMER_DEQUEUE_MS", m.getKeys()).isNotNull();
            assertThat(m.getStoreTimestamp()).as("%s stored", m.getKeys())
                    .isGreaterThanOrEqualTo(due.get(m.getKeys()))
                    .isGreaterThanOrEqualTo(Long.parseLong(m.getProperty("TIMER_OUT_MS")));
        });
    }
}
