package dev.ferry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.Message;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client's metrics, on by configuration: send and consume latency and failures, and per-queue lag. */
class ClientMetricsTest extends AgainstCluster {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private FerryClient metricsClient() {
        FerryClient measured = new FerryClient(ClientConfig.builder(cluster.nameServerAddress()).clientIp("127.0.0.1")
                .localOffsetDirectory(directory).offsetPersistInterval(Duration.ofSeconds(1)).metrics(true).build());
        return measured;
    }

    private static MetricSnapshot snapshot(FerryClient client, String name) {
        return client.metrics().orElseThrow().registry().scrape().stream()
                .filter(m -> m.getMetadata().getPrometheusName().equals(name)
                        || m.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    /** The count of the histogram's data point whose labels include these. */
    private static long count(FerryClient client, String histogram, String... labels) {
        return ((HistogramSnapshot) snapshot(client, histogram)).getDataPoints().stream()
                .filter(p -> matches(p, labels)).mapToLong(HistogramSnapshot.HistogramDataPointSnapshot::getCount)
                .sum();
    }

    private static boolean matches(DataPointSnapshot point, String... labels) {
        for (int i = 0; i < labels.length; i += 2) {
            if (!labels[i + 1].equals(point.getLabels().get(labels[i]))) {
                return false;
            }
        }
        return true;
    }

    @Test
    void aClientWithoutMetricsHasNone() {
        assertThat(client.metrics()).isEmpty();
    }

    @Test
    void sendsConsumptionAndLagAreRecorded() throws Exception {
        try (FerryClient measured = metricsClient()) {
            String topic = ClientTestSupport.unique("ClientMetrics");
            String group = ClientTestSupport.unique("CG");
            Producer producer = measured.producer(ProducerConfig.builder(ClientTestSupport.unique("PG")).build());
            for (int i = 0; i < 5; i++) {
                producer.send(Message.builder(topic).body(("m" + i).getBytes(StandardCharsets.UTF_8)).build());
            }
            assertThat(count(measured, "rocketmq_send_cost_time_milliseconds", "topic", topic, "invocation_status",
                    "success", "client_id", measured.clientId())).isEqualTo(5);

            AtomicInteger calls = new AtomicInteger();
            CountDownLatch release = new CountDownLatch(1);
            PushConsumer consumer = measured.pushConsumer(PushConsumerConfig.builder(group).subscribe(topic, "*")
                    .consumeFromWhere(ConsumeFromWhere.FIRST_OFFSET).consumeThreads(1).build(), message -> {
                        if (calls.incrementAndGet() == 1) {
                            throw new IllegalStateException("the first attempt fails");
                        }
                        release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS); // the rest wait: lag stays
                    });
            await().atMost(WAIT).until(() -> count(measured, "rocketmq_process_time_milliseconds", "topic", topic,
                    "consumer_group", group, "invocation_status", "failure") == 1);
            // four wait in the listener; the failed one went back to the broker
            await().atMost(WAIT).until(() -> ((GaugeSnapshot) snapshot(measured,
                    "ferry_client_consumer_lag_messages")).getDataPoints().stream()
                    .filter(p -> matches(p, "topic", topic, "consumer_group", group))
                    .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue).sum() == 4);
            release.countDown();
            await().atMost(WAIT).until(() -> count(measured, "rocketmq_process_time_milliseconds", "topic", topic,
                    "consumer_group", group, "invocation_status", "success") >= 4);
            await().atMost(WAIT).until(() -> ((GaugeSnapshot) snapshot(measured,
                    "ferry_client_consumer_lag_messages")).getDataPoints().stream()
                    .filter(p -> matches(p, "topic", topic, "consumer_group", group))
                    .mapToDouble(GaugeSnapshot.GaugeDataPointSnapshot::getValue).sum() == 0);
            consumer.close();
        }
    }
}
