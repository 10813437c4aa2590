package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.server.metrics.MetricsConfig;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.remoting.protocol.admin.ConsumeStats;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint (metricsExporterType=PROM) scraped under traffic of Apache 5.3.3 clients: Apache's metric
 * names and labels, counters moving by exactly the traffic sent, and the lag gauge agreeing with consumerProgress.
 */
@Tag("integration")
class MetricsTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /**
     * Sample names Apache 5.3.3's broker exposes that Ferry publishes too (pop and RocksDB ones and three timer ones it
     * has not).
     */
    private static final List<String> APACHE_NAMES = List.of("rocketmq_topic_number", "rocketmq_consumer_group_number",
            "rocketmq_broker_permission", "rocketmq_processor_watermark", "rocketmq_messages_in_total",
            "rocketmq_throughput_in_total", "rocketmq_messages_out_total", "rocketmq_throughput_out_total",
            "rocketmq_message_size_bucket", "rocketmq_message_size_count", "rocketmq_message_size_sum",
            "rocketmq_producer_connections", "rocketmq_consumer_connections", "rocketmq_consumer_lag_messages",
            "rocketmq_consumer_lag_latency_milliseconds", "rocketmq_consumer_inflight_messages",
            "rocketmq_consumer_queueing_latency_milliseconds", "rocketmq_consumer_ready_messages",
            "rocketmq_rpc_latency_milliseconds_bucket", "rocketmq_rpc_latency_milliseconds_count",
            "rocketmq_storage_size_bytes", "rocketmq_storage_flush_behind_bytes",
            "rocketmq_storage_dispatch_behind_bytes", "rocketmq_storage_message_reserve_time_milliseconds",
            "rocketmq_commit_messages_total", "rocketmq_rollback_messages_total", "rocketmq_half_messages",
            "rocketmq_finish_message_latency_milliseconds_count",
            "rocketmq_topic_create_execution_time_milliseconds_count",
            "rocketmq_consumer_group_create_execution_time_milliseconds_count", "rocketmq_timer_enqueue_lag",
            "rocketmq_timer_dequeue_lag", "rocketmq_timer_dequeue_latency_milliseconds", "rocketmq_timer_enqueue_total",
            "rocketmq_timer_dequeue_total", "rocketmq_timer_message_snapshot");

    @TempDir
    static Path dir;
    private static FerryServerFixture ferry;
    private static ApacheClients clients;
    private static DefaultMQAdminExt admin;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        ferry = new FerryServerFixture(FerryServerFixture.small(dir.resolve("store"))
                .metrics(new MetricsConfig(MetricsConfig.ExporterType.PROM, "127.0.0.1", 0)).build());
        clients = new ApacheClients(ferry.nameServer());
        admin = ApacheClients.admin(ferry.nameServer());
        clients.onClose(admin::shutdown); // together with the clients the tests start
    }

    @AfterAll
    static void stop() {
        if (clients != null) {
            clients.close();
        }
        if (ferry != null) {
            ferry.close();
        }
    }

    /** One sample: its name, labels and value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private static final Pattern LINE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private static List<Sample> scrape() throws IOException, InterruptedException {
        int port = ferry.server().metricsPort().orElseThrow();
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/metrics")).build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(200);
        List<Sample> samples = new ArrayList<>();
        for (String line : response.body().split("\n")) {
            Matcher m = LINE.matcher(line);
            if (line.startsWith("#") || !m.find()) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return samples;
    }

    /** The value of the one sample with {@code name} whose labels include {@code labels}; 0 when there is none. */
    private static double value(List<Sample> samples, String name, String... labels) {
        double total = 0;
        int found = 0;
        for (Sample sample : samples) {
            if (!sample.name().equals(name)) {
                continue;
            }
            boolean matches = true;
            for (int i = 0; i < labels.length; i += 2) {
                matches &= labels[i + 1].equals(sample.labels().get(labels[i]));
            }
            if (matches) {
                total += sample.value();
                found++;
            }
        }
        assertThat(found).as("samples of %s with %s", name, List.of(labels)).isLessThanOrEqualTo(1);
        return total;
    }

    private static void send(DefaultMQProducer producer, String topic, int count, int bodySize) throws Exception {
        for (int i = 0; i < count; i++) {
            assertThat(producer.send(new Message(topic, "T", new byte[bodySize])).getSendStatus())
                    .isEqualTo(SendStatus.SEND_OK);
        }
    }

    @Test
    void shouldAnswerAScrapeWithinSecondsWhileEightConnectionsNeverFinishTheirHeaders() throws Exception {
        int port = ferry.server().metricsPort().orElseThrow();
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 8; i++) {
                Socket socket = new Socket("127.0.0.1", port);
                socket.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: a\r\nX-Slow: "
                        .getBytes(StandardCharsets.US_ASCII));
                stalled.add(socket);
            }
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/metrics")).timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("rocketmq_topic_number");
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
    }

    @Test
    void countersMoveByTheTrafficSentAndCarryApachesLabels() throws Exception {
        DefaultMQProducer producer = clients.producer("PG_METRICS");
        send(producer, "MetricsTopic", 1, 100); // creates the topic
        List<Sample> before = scrape();
        send(producer, "MetricsTopic", 10, 2000);
        List<Sample> after = scrape();

        String[] topic = {"topic", "MetricsTopic", "message_type", "normal", "is_system", "false",
            "cluster", "DefaultCluster", "node_type", "broker", "node_id", "broker-a"};
        assertThat(value(after, "rocketmq_messages_in_total", topic)
                - value(before, "rocketmq_messages_in_total", topic)).isEqualTo(10);
        double bytes = value(after, "rocketmq_throughput_in_total", topic)
                - value(before, "rocketmq_throughput_in_total", topic);
        assertThat(bytes).isGreaterThan(10 * 2000).isLessThan(10 * 2600); // bodies plus their stored headers
        assertThat(value(after, "rocketmq_message_size_count", topic)
                - value(before, "rocketmq_message_size_count", topic)).isEqualTo(10);
        assertThat(value(after, "rocketmq_message_size_bucket", "topic", "MetricsTopic", "le", "4096.0")
                - value(before, "rocketmq_message_size_bucket", "topic", "MetricsTopic", "le", "4096.0"))
                .isEqualTo(10);
        assertThat(value(after, "rocketmq_rpc_latency_milliseconds_count", "request_code", "send_message_v2",
                "response_code", "success", "protocol_type", "remoting", "result", "success", "is_long_polling",
                "false") - value(before, "rocketmq_rpc_latency_milliseconds_count", "request_code",
                "send_message_v2", "response_code", "success", "protocol_type", "remoting", "result", "success",
                "is_long_polling", "false")).isEqualTo(10);
        assertThat(value(after, "rocketmq_producer_connections", "language", "java", "protocol_type", "remoting"))
                .isPositive();
        assertThat(value(after, "rocketmq_topic_number")).isGreaterThanOrEqualTo(2);
        // the consumer families appear with the first consumer, as in Apache
        assertThat(after).extracting(Sample::name).containsAll(APACHE_NAMES.stream()
                .filter(name -> name.startsWith("rocketmq_storage") || name.contains("_in_")
                        || name.startsWith("rocketmq_message_size") || name.startsWith("rocketmq_rpc")
                        || name.startsWith("rocketmq_producer") || name.endsWith("_number")
                        || name.endsWith("permission") || name.endsWith("watermark")).toList());
    }

    @Test
    void consumptionAndLagMatchWhatConsumerProgressShows() throws Exception {
        DefaultMQProducer producer = clients.producer("PG_METRICS_LAG");
        send(producer, "LagTopic", 6, 50);
        AtomicInteger consumed = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch stalled = new CountDownLatch(1);
        DefaultMQPushConsumer consumer = clients.pushConsumer("CG_METRICS");
        consumer.subscribe("LagTopic", "*");
        consumer.setPersistConsumerOffsetInterval(200);
        consumer.registerMessageListener((MessageListenerConcurrently) (messages, context) -> {
            // the first six are consumed, the rest pulled and held: lag and in flight. Counted on the way in, as
            // several consume threads may look at once
            if (admitted.addAndGet(messages.size()) > 6) {
                try {
                    stalled.await(TIMEOUT.toMillis() * 3, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            consumed.addAndGet(messages.size());
            return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
        });
        clients.start(consumer);
        await().atMost(TIMEOUT).until(() -> consumed.get() >= 6);
        String[] group = {"topic", "LagTopic", "consumer_group", "CG_METRICS", "is_system", "false"};
        await().atMost(TIMEOUT).until(() -> value(scrape(), "rocketmq_messages_out_total", group) == 6);
        assertThat(value(scrape(), "rocketmq_consumer_connections", "consumer_group", "CG_METRICS",
                "consume_mode", "push", "language", "java")).isEqualTo(1);

        send(producer, "LagTopic", 4, 50);
        await().atMost(TIMEOUT).ignoreExceptions().until(() -> {
            ConsumeStats progress = admin.examineConsumeStats("CG_METRICS");
            long diff = progress.getOffsetTable().entrySet().stream()
                    .filter(e -> e.getKey().getTopic().equals("LagTopic"))
                    .mapToLong(e -> e.getValue().getBrokerOffset() - e.getValue().getConsumerOffset()).sum();
            return diff == 4 && value(scrape(), "rocketmq_consumer_lag_messages", group) == diff;
        });
        await().atMost(TIMEOUT).until(() -> value(scrape(), "rocketmq_consumer_inflight_messages", group) == 4);
        List<Sample> lagging = scrape();
        assertThat(value(lagging, "rocketmq_consumer_lag_latency_milliseconds", group)).isPositive();
        assertThat(value(lagging, "rocketmq_consumer_ready_messages", group)).isZero();
        assertThat(lagging).extracting(Sample::name).containsAll(APACHE_NAMES.stream()
                .filter(name -> !name.contains("_messages_total") && !name.contains("half") && !name.contains("finish")
                        && !name.contains("create")).toList()); // those appear with their first event
        stalled.countDown();
        await().atMost(TIMEOUT).until(() -> value(scrape(), "rocketmq_consumer_lag_messages", group) == 0);
    }

    @Test
    void timersWaitingFiredAndTheirDistributionShowUnderApachesTimerNames() throws Exception {
        DefaultMQProducer producer = clients.producer("PG_METRICS_TIMER");
        send(producer, "TimerMetricsTopic", 1, 10); // creates the topic
        List<Sample> before = scrape();
        long now = System.currentTimeMillis();
        for (int i = 0; i < 3; i++) {
            Message later = new Message("TimerMetricsTopic", "T", new byte[10]);
            later.setDeliverTimeMs(now + 120_000);
            assertThat(producer.send(later).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        Message soon = new Message("TimerMetricsTopic", "T", new byte[10]);
        soon.setDeliverTimeMs(now + 2_000);
        assertThat(producer.send(soon).getSendStatus()).isEqualTo(SendStatus.SEND_OK);

        String[] store = {"storage_type", "local", "storage_medium", "disk", "cluster", "DefaultCluster",
            "node_type", "broker", "node_id", "broker-a"};
        await().atMost(TIMEOUT).until(() -> {
            List<Sample> after = scrape();
            return delta(before, after, "rocketmq_timer_enqueue_total", store) == 4
                    && delta(before, after, "rocketmq_timer_dequeue_total", store) == 1
                    && delta(before, after, "rocketmq_timer_dequeue_lag", store) == 3;
        });
        List<Sample> after = scrape();
        assertThat(delta(before, after, "rocketmq_timer_message_snapshot", "timer_bound_s", "300")).isEqualTo(3);
        assertThat(value(after, "rocketmq_timer_enqueue_lag", store)).isZero();
        assertThat(value(after, "rocketmq_timer_dequeue_latency_milliseconds", store)).isBetween(0.0, 5.0);
        assertThat(value(after, "ferry_timer_messages_cancelled_total", "node_id", "broker-a")).isZero();
        assertThat(value(after, "ferry_timer_messages_lost_total", "node_id", "broker-a")).isZero();
        assertThat(after.stream().filter(sample -> sample.name().equals("rocketmq_timer_message_snapshot"))
                .map(sample -> sample.labels().get("timer_bound_s")))
                .containsExactlyInAnyOrder("5", "60", "300", "900", "3600", "14400", "28800", "86400");
    }

    @Test
    void shouldPublishNoTimerFamiliesAndZeroTimerKeysWhenTheTimerWheelIsOff() throws Exception {
        try (FerryServerFixture off = new FerryServerFixture(FerryServerFixture.small(dir.resolve("wheel-off"))
                .metrics(new MetricsConfig(MetricsConfig.ExporterType.PROM, "127.0.0.1", 0))
                .broker(broker -> broker.timers(broker.timers().withEnabled(false))).build())) {
            int port = off.server().metricsPort().orElseThrow();
            String body = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
            assertThat(body).contains("rocketmq_topic_number").doesNotContain("timer");

            Map<String, String> runtime = admin.fetchBrokerRuntimeStats("127.0.0.1:" + off.server().brokerPort())
                    .getTable();
            assertThat(runtime).containsEntry("timerCongestNum", "0").containsEntry("timerOffsetBehind", "0")
                    .containsEntry("timerReadBehind", "0").containsEntry("timerEnqueueTps", "0.0")
                    .containsEntry("timerDequeueTps", "0.0");
        }
    }

    private static double delta(List<Sample> before, List<Sample> after, String name, String... labels) {
        return value(after, name, labels) - value(before, name, labels);
    }

    @Test
    void transactionsAndCreationsAreTimedAndCounted() throws Exception {
        TransactionMQProducer producer = new TransactionMQProducer("PG_METRICS_TX");
        producer.setTransactionListener(new TransactionListener() {
            @Override
            public LocalTransactionState executeLocalTransaction(Message msg, Object arg) {
                return "commit".equals(new String(msg.getBody(), StandardCharsets.UTF_8))
                        ? LocalTransactionState.COMMIT_MESSAGE : LocalTransactionState.ROLLBACK_MESSAGE;
            }

            @Override
            public LocalTransactionState checkLocalTransaction(MessageExt msg) {
                return LocalTransactionState.ROLLBACK_MESSAGE;
            }
        });
        clients.started(producer);
        for (String body : new String[] {"commit", "commit", "rollback"}) {
            Message message = new Message("TxMetrics", body.getBytes(StandardCharsets.UTF_8));
            assertThat(producer.sendMessageInTransaction(message, null).getSendStatus()).isEqualTo(SendStatus.SEND_OK);
        }
        await().atMost(TIMEOUT).until(() -> value(scrape(), "rocketmq_commit_messages_total", "topic", "TxMetrics") == 2
                && value(scrape(), "rocketmq_rollback_messages_total", "topic", "TxMetrics") == 1);
        List<Sample> samples = scrape();
        assertThat(samples).anySatisfy(sample -> {
            assertThat(sample.name()).isEqualTo("rocketmq_half_messages");
            assertThat(sample.labels()).containsEntry("topic", "TxMetrics");
            assertThat(sample.value()).isZero(); // three prepared, all decided
        });
        assertThat(value(samples, "rocketmq_finish_message_latency_milliseconds_count", "topic", "TxMetrics"))
                .isEqualTo(2);
        assertThat(value(samples, "rocketmq_messages_in_total", "topic", "TxMetrics", "message_type", "transaction"))
                .isEqualTo(3);

        String broker = "127.0.0.1:" + ferry.server().brokerPort();
        admin.createAndUpdateTopicConfig(broker, new org.apache.rocketmq.common.TopicConfig("Created", 2, 2, 6));
        org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig group =
                new org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig();
        group.setGroupName("CG_CREATED");
        admin.createAndUpdateSubscriptionGroupConfig(broker, group);
        List<Sample> created = scrape();
        assertThat(value(created, "rocketmq_topic_create_execution_time_milliseconds_count", "invocation_status",
                "success", "is_system", "false")).isGreaterThanOrEqualTo(1);
        assertThat(value(created, "rocketmq_consumer_group_create_execution_time_milliseconds_count",
                "invocation_status", "success")).isGreaterThanOrEqualTo(1);
    }
}
