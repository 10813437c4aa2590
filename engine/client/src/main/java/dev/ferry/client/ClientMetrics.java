package dev.ferry.client;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * A client's metrics, when {@link ClientConfig#metrics()} asks for them: send latency and failures
 * ({@code rocketmq_send_cost_time_milliseconds}, by {@code invocation_status}), listener time and failures
 * ({@code rocketmq_process_time_milliseconds}), under the names and buckets of Apache RocketMQ 5's own clients, and
 * the lag of every queue a consumer holds ({@code ferry_client_consumer_lag_messages}: the broker's last reported next
 * offset less the consumer's committed one). All carry {@code client_id}. Kept in {@link #registry()}, which an
 * application publishes as it publishes its other metrics.
 */
public final class ClientMetrics implements ClientRecorder {
    static final double[] SEND_BUCKETS = {1, 5, 10, 20, 50, 200, 500};
    static final double[] PROCESS_BUCKETS = {1, 5, 10, 100, 1000, 5000, 10_000};
    /** Label sets kept per histogram; beyond, new topics are folded into one. */
    static final int MAX_LABEL_SETS = 10_000;

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Histogram sendCost;
    private final Histogram processTime;
    private final Map<List<Object>, DistributionDataPoint> points = new ConcurrentHashMap<>();

    ClientMetrics(String clientId, Supplier<Collection<GroupMember>> consumers) {
        Labels client = Labels.of("client_id", clientId);
        this.sendCost = Histogram.builder().name("rocketmq_send_cost_time_milliseconds")
                .help("Time a send took, all its attempts").constLabels(client)
                .labelNames("topic", "invocation_status").classicOnly()
                .withoutExemplars().classicUpperBounds(SEND_BUCKETS)
                .register(registry);
        this.processTime = Histogram.builder().name("rocketmq_process_time_milliseconds")
                .help("Time the listener took for a message").constLabels(client)
                .labelNames("topic", "consumer_group", "invocation_status").classicOnly()
                .withoutExemplars()
                .classicUpperBounds(PROCESS_BUCKETS).register(registry);
        GaugeWithCallback.builder().name("ferry_client_consumer_lag_messages")
                .help("Messages of a held queue not yet committed").constLabels(client)
                .labelNames("topic", "consumer_group", "broker", "queue_id")
                .callback(cb -> consumers.get().forEach(member -> member.admin().lag().forEach(lag ->
                        cb.call(lag.messages(), lag.queue().topic(), member.group(), lag.queue().brokerName(),
                                String.valueOf(lag.queue().queueId())))))
                .register(registry);
    }

    /** Everything this client records. */
    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void sent(String topic, boolean success, long nanos) {
        point(sendCost, List.of("send", topic, success), topic, null, success).observe(nanos / 1_000_000.0);
    }

    @Override
    public void consumed(String group, String topic, boolean success, long nanos) {
        point(processTime, List.of("process", topic, group, success), topic, group, success)
                .observe(nanos / 1_000_000.0);
    }

    private DistributionDataPoint point(Histogram histogram, List<Object> key, String topic, String group,
                                        boolean success) {
        DistributionDataPoint point = points.get(key);
        if (point != null) {
            return point;
        }
        boolean full = points.size() >= MAX_LABEL_SETS;
        String shownTopic = full ? "other" : topic;
        String status = success ? "success" : "failure";
        return points.computeIfAbsent(full ? List.of(key.get(0), "other", group == null ? "" : group, success)
                : key, k -> group == null ? histogram.labelValues(shownTopic, status)
                : histogram.labelValues(shownTopic, group, status));
    }
}
