package dev.ferry.server.metrics;

import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RequestObserver;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.server.broker.Broker;
import dev.ferry.server.broker.BrokerFigures;
import dev.ferry.server.broker.BrokerObserver;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The broker's metrics under Apache RocketMQ 5's names, labels and buckets, so that queries and dashboards written
 * for Apache's brokers read Ferry's unchanged: {@code cluster}, {@code node_type} and {@code node_id} on every
 * series; counters, gauges and connection counts read from the broker's own tables at scrape time
 * ({@link BrokerFigures}); the message-size and RPC-latency histograms recorded as puts and answers happen, each
 * label set's data point looked up once and kept. Sample names carry the unit suffix Apache's exporter adds
 * ({@code rocketmq_rpc_latency_milliseconds_bucket}, {@code rocketmq_storage_size_bytes}). The {@code version} of a
 * connection is the protocol version number its client sent ({@code 479}); Apache shows the release name
 * ({@code v5_3_3}) from its own version table.
 */
public final class BrokerMetrics {
    /** Apache's buckets. */
    static final double[] MESSAGE_SIZE_BUCKETS = {1024, 4096, 524_288, 1_048_576, 2_097_152, 4_194_304};
    static final double[] RPC_LATENCY_BUCKETS = {1, 3, 5, 7, 10, 100, 1000, 2000, 3000};
    /** Apache's, in seconds though its sample name says milliseconds: Apache records seconds there. */
    static final double[] FINISH_LATENCY_BUCKETS = {5, 60, 600, 3600, 43_200, 86_400};
    static final double[] CREATE_TIME_BUCKETS = {10, 100, 1000, 3000, 5000};
    /** Label sets kept per histogram: beyond, new label sets are folded into one overflow set. */
    static final int MAX_LABEL_SETS = 10_000;

    private final Histogram messageSize;
    private final Histogram rpcLatency;
    private final Histogram finishLatency;
    private final Histogram topicCreateTime;
    private final Histogram groupCreateTime;
    private final Map<String, DistributionDataPoint> finishPoints = new ConcurrentHashMap<>();
    private final Map<List<String>, DistributionDataPoint> sizePoints = new ConcurrentHashMap<>();
    private final Map<Long, DistributionDataPoint> rpcPoints = new ConcurrentHashMap<>();

    private BrokerMetrics(BrokerFigures figures, PrometheusRegistry registry) {
        Labels common = Labels.of("cluster", figures.clusterName(), "node_type", "broker", "node_id",
                figures.brokerName());
        GaugeWithCallback.builder().name("rocketmq_topic_number").help("Active topic number").constLabels(common)
                .callback(cb -> cb.call(figures.topicCount())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_group_number").help("Active subscription group number")
                .constLabels(common).callback(cb -> cb.call(figures.consumerGroupCount())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_broker_permission").help("Broker permission").constLabels(common)
                .callback(cb -> cb.call(6)).register(registry);
        GaugeWithCallback.builder().name("rocketmq_processor_watermark").help("Request processor watermark")
                .constLabels(common).labelNames("processor")
                .callback(cb -> figures.processorQueues().forEach((processor, size) -> cb.call(size, processor)))
                .register(registry);
        traffic(figures, registry, common);
        connections(figures, registry, common);
        transactions(figures, registry, common);
        progress(figures, registry, common);
        storage(figures, registry, common);
        if (figures.timersEnabled()) {
            timers(figures, registry, common);
        }
        this.messageSize = Histogram.builder().name("rocketmq_message_size").help("Incoming messages size")
                .constLabels(common).labelNames("topic", "message_type", "is_system").classicOnly()
                .withoutExemplars()
                .classicUpperBounds(MESSAGE_SIZE_BUCKETS).register(registry);
        this.finishLatency = Histogram.builder().name("rocketmq_finish_message_latency_milliseconds")
                .help("Transaction finish latency").constLabels(common).labelNames("topic").classicOnly()
                .withoutExemplars()
                .classicUpperBounds(FINISH_LATENCY_BUCKETS).register(registry);
        this.topicCreateTime = Histogram.builder().name("rocketmq_topic_create_execution_time_milliseconds")
                .help("The distribution of create topic time").constLabels(common)
                .labelNames("invocation_status", "is_system").classicOnly()
                .withoutExemplars().classicUpperBounds(CREATE_TIME_BUCKETS)
                .register(registry);
        this.groupCreateTime = Histogram.builder().name("rocketmq_consumer_group_create_execution_time_milliseconds")
                .help("The distribution of create subscription group time").constLabels(common)
                .labelNames("invocation_status").classicOnly()
                .withoutExemplars().classicUpperBounds(CREATE_TIME_BUCKETS)
                .register(registry);
        this.rpcLatency = Histogram.builder().name("rocketmq_rpc_latency_milliseconds").help("Rpc latency")
                .constLabels(common).labelNames("protocol_type", "request_code", "response_code", "is_long_polling",
                        "result").classicOnly()
                .withoutExemplars().classicUpperBounds(RPC_LATENCY_BUCKETS).register(registry);
    }

    /** Registers the broker's metrics in {@code registry} and has the broker report puts and answers to them. */
    public static BrokerMetrics register(Broker broker, PrometheusRegistry registry) {
        BrokerMetrics metrics = new BrokerMetrics(broker.figures(), registry);
        broker.observe(metrics.rpcObserver(), new BrokerObserver() {
            @Override
            public void stored(String topic, String messageType, int count, long bytes) {
                metrics.stored(topic, messageType, count, bytes);
            }

            @Override
            public void committed(String topic, long millisSincePrepared) {
                metrics.committed(topic, millisSincePrepared);
            }

            @Override
            public void topicCreated(boolean success, boolean system, long millis) {
                metrics.topicCreateTime.labelValues(success ? "success" : "failure", String.valueOf(system))
                        .observe(millis);
            }

            @Override
            public void groupCreated(boolean success, long millis) {
                metrics.groupCreateTime.labelValues(success ? "success" : "failure").observe(millis);
            }
        });
        return metrics;
    }

    private static void traffic(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        CounterWithCallback.builder().name("rocketmq_messages_in_total").help("Total number of incoming messages")
                .constLabels(common).labelNames("topic", "message_type", "is_system")
                .callback(cb -> figures.messagesIn().forEach(t -> cb.call(t.messages(), t.topic(), t.messageType(),
                        system(t.topic())))).register(registry);
        CounterWithCallback.builder().name("rocketmq_throughput_in_total").help("Total traffic of incoming messages")
                .constLabels(common).labelNames("topic", "message_type", "is_system")
                .callback(cb -> figures.messagesIn().forEach(t -> cb.call(t.bytes(), t.topic(), t.messageType(),
                        system(t.topic())))).register(registry);
        CounterWithCallback.builder().name("rocketmq_messages_out_total").help("Total number of outgoing messages")
                .constLabels(common).labelNames("topic", "consumer_group", "is_system")
                .callback(cb -> figures.messagesOut().forEach(t -> cb.call(t.messages(), t.topic(), t.group(),
                        system(t.topic(), t.group())))).register(registry);
        CounterWithCallback.builder().name("rocketmq_throughput_out_total").help("Total traffic of outgoing messages")
                .constLabels(common).labelNames("topic", "consumer_group", "is_system")
                .callback(cb -> figures.messagesOut().forEach(t -> cb.call(t.bytes(), t.topic(), t.group(),
                        system(t.topic(), t.group())))).register(registry);
        CounterWithCallback.builder().name("rocketmq_send_to_dlq_messages_total")
                .help("Consumer send to DLQ messages").constLabels(common)
                .labelNames("topic", "consumer_group", "is_system")
                .callback(cb -> figures.deadLettered().forEach(d -> cb.call(d.messages(), d.topic(), d.group(),
                        system(d.topic(), d.group())))).register(registry);
        // Ferry's own: Apache counts no replies
        CounterWithCallback.builder().name("ferry_reply_messages_pushed_total")
                .help("Replies pushed to their requesters").constLabels(common)
                .callback(cb -> cb.call(figures.repliesPushed())).register(registry);
        CounterWithCallback.builder().name("ferry_reply_messages_dropped_total")
                .help("Replies dropped, never stored, by reason").constLabels(common).labelNames("reason")
                .callback(cb -> figures.repliesDropped().forEach((reason, n) -> cb.call(n, reason)))
                .register(registry);
    }

    private static void transactions(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        CounterWithCallback.builder().name("rocketmq_commit_messages_total").help("Total number of commit messages")
                .constLabels(common).labelNames("topic")
                .callback(cb -> figures.committedTransactions().forEach((topic, n) -> cb.call(n, topic)))
                .register(registry);
        CounterWithCallback.builder().name("rocketmq_rollback_messages_total")
                .help("Total number of rollback messages").constLabels(common).labelNames("topic")
                .callback(cb -> figures.rolledBackTransactions().forEach((topic, n) -> cb.call(n, topic)))
                .register(registry);
        GaugeWithCallback.builder().name("rocketmq_half_messages").help("Half messages of all topics")
                .constLabels(common).labelNames("topic")
                .callback(cb -> figures.halfMessages().forEach((topic, n) -> cb.call(n, topic))).register(registry);
    }

    /** A committed transaction: in seconds, as Apache records it under this name. */
    private void committed(String topic, long millisSincePrepared) {
        DistributionDataPoint point = finishPoints.get(topic);
        if (point == null) {
            String label = finishPoints.size() < MAX_LABEL_SETS ? topic : "other";
            point = finishPoints.computeIfAbsent(label, finishLatency::labelValues);
        }
        point.observe(millisSincePrepared / 1000.0);
    }

    private static void connections(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        GaugeWithCallback.builder().name("rocketmq_producer_connections").help("Producer connections")
                .constLabels(common).labelNames("language", "version", "protocol_type")
                .callback(cb -> figures.producerConnections().forEach(c -> cb.call(c.count(), lower(c.language()),
                        c.version(), "remoting"))).register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_connections").help("Consumer connections")
                .constLabels(common).labelNames("consumer_group", "language", "version", "consume_mode",
                        "protocol_type", "is_system")
                .callback(cb -> figures.consumerConnections().forEach(c -> cb.call(c.count(), c.group(),
                        lower(c.language()), c.version(), c.consumeMode(), "remoting",
                        String.valueOf(SystemTopics.hasSystemGroupPrefix(c.group()))))).register(registry);
    }

    private static void progress(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        String[] labels = {"topic", "consumer_group", "is_retry", "is_system"};
        GaugeWithCallback.builder().name("rocketmq_consumer_lag_messages").help("Consumer lag messages")
                .constLabels(common).labelNames(labels)
                .callback(cb -> figures.progress().forEach(p -> cb.call(p.lag(), progressLabels(p))))
                .register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_lag_latency_milliseconds").help("Consumer lag time")
                .constLabels(common).labelNames(labels)
                .callback(cb -> figures.progress().forEach(p -> cb.call(p.lagLatencyMillis(), progressLabels(p))))
                .register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_inflight_messages").help("Consumer inflight messages")
                .constLabels(common).labelNames(labels)
                .callback(cb -> figures.progress().forEach(p -> cb.call(p.inflight(), progressLabels(p))))
                .register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_queueing_latency_milliseconds")
                .help("Consumer queueing time").constLabels(common).labelNames(labels)
                .callback(cb -> figures.progress().forEach(p -> cb.call(p.queueingLatencyMillis(),
                        progressLabels(p)))).register(registry);
        GaugeWithCallback.builder().name("rocketmq_consumer_ready_messages").help("Consumer ready messages")
                .constLabels(common).labelNames(labels)
                .callback(cb -> figures.progress().forEach(p -> cb.call(p.ready(), progressLabels(p))))
                .register(registry);
    }

    private static String[] progressLabels(BrokerFigures.Progress p) {
        return new String[] {p.topic(), p.group(), "false", system(p.topic(), p.group())};
    }

    private static void storage(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        Labels store = common.merge(Labels.of("storage_type", "local", "storage_medium", "disk"));
        GaugeWithCallback.builder().name("rocketmq_storage_size_bytes").help("Broker storage size")
                .constLabels(store).callback(cb -> {
                    long bytes = figures.storageBytes();
                    if (bytes >= 0) {
                        cb.call(bytes);
                    }
                }).register(registry);
        GaugeWithCallback.builder().name("rocketmq_storage_flush_behind_bytes").help("Broker flush behind bytes")
                .constLabels(store).callback(cb -> cb.call(figures.flushBehindBytes())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_storage_dispatch_behind_bytes")
                .help("Broker dispatch behind bytes").constLabels(store)
                .callback(cb -> cb.call(figures.dispatchBehindBytes())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_storage_message_reserve_time_milliseconds")
                .help("Broker message reserve time").constLabels(store).callback(cb -> {
                    long millis = figures.reserveTimeMillis();
                    if (millis > 0) {
                        cb.call(millis);
                    }
                }).register(registry);
    }

    /**
     * The timer families Apache registers with its timer wheel on, where Ferry has the figure. The dequeue lag is the
     * timers waiting, as Apache counts its wheel's entries from the slot being read on; the dequeue latency is in whole
     * seconds, as Apache records it though its sample name says milliseconds. The totals carry no {@code topic}: Ferry
     * counts over all topics.
     */
    private static void timers(BrokerFigures figures, PrometheusRegistry registry, Labels common) {
        Labels store = common.merge(Labels.of("storage_type", "local", "storage_medium", "disk"));
        GaugeWithCallback.builder().name("rocketmq_timer_enqueue_lag").help("Timer enqueue messages lag")
                .constLabels(store).callback(cb -> cb.call(figures.timers().enqueueLag())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_timer_dequeue_lag").help("Timer dequeue messages lag")
                .constLabels(store).callback(cb -> cb.call(figures.timers().waiting())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_timer_dequeue_latency_milliseconds").help("Timer dequeue latency")
                .constLabels(store).callback(cb -> cb.call(figures.timers().dequeueLagMs() / 1000))
                .register(registry);
        CounterWithCallback.builder().name("rocketmq_timer_enqueue_total").help("Total number of timer enqueue")
                .constLabels(store).callback(cb -> cb.call(figures.timers().enqueued())).register(registry);
        CounterWithCallback.builder().name("rocketmq_timer_dequeue_total").help("Total number of timer dequeue")
                .constLabels(store).callback(cb -> cb.call(figures.timers().fired())).register(registry);
        GaugeWithCallback.builder().name("rocketmq_timer_message_snapshot")
                .help("Timer message distribution snapshot, only count timing messages in 24h.").constLabels(store)
                .labelNames("timer_bound_s")
                .callback(cb -> figures.timerDistribution().forEach((bound, n) -> cb.call(n, String.valueOf(bound))))
                .register(registry);
        // Ferry's own: Apache counts neither
        CounterWithCallback.builder().name("ferry_timer_messages_cancelled_total")
                .help("Timers a cancel withdrew before their time").constLabels(common)
                .callback(cb -> cb.call(figures.timers().cancelled())).register(registry);
        CounterWithCallback.builder().name("ferry_timer_messages_lost_total")
                .help("Timer messages dropped: unreadable, gone from the store, or their topic gone").constLabels(common)
                .callback(cb -> cb.call(figures.timers().lost())).register(registry);
    }

    /** A put: Apache records the mean size of a put's messages once per put. */
    private void stored(String topic, String messageType, int count, long bytes) {
        if (count <= 0) {
            return;
        }
        List<String> key = List.of(topic, messageType);
        DistributionDataPoint point = sizePoints.get(key);
        if (point == null) {
            List<String> labels = sizePoints.size() < MAX_LABEL_SETS ? key : List.of("other", messageType);
            point = sizePoints.computeIfAbsent(labels, k -> messageSize.labelValues(k.get(0), k.get(1),
                    system(k.get(0))));
        }
        point.observe(bytes / (double) count);
    }

    private RequestObserver rpcObserver() {
        return (requestCode, responseCode, nanos, deferred) -> {
            boolean longPolling = deferred && (requestCode == RequestCode.PULL_MESSAGE
                    || requestCode == RequestCode.LITE_PULL_MESSAGE);
            long key = ((long) requestCode << 33) | ((responseCode & 0xFFFF_FFFFL) << 1) | (longPolling ? 1 : 0);
            DistributionDataPoint point = rpcPoints.get(key);
            if (point == null) {
                if (rpcPoints.size() >= MAX_LABEL_SETS) {
                    return;
                }
                point = rpcPoints.computeIfAbsent(key, k -> rpcLatency.labelValues("remoting", codeName(
                        RequestCode.nameOf(requestCode)), codeName(ResponseCode.nameOf(responseCode)),
                        String.valueOf(longPolling), "success"));
            }
            point.observe(nanos / 1_000_000.0);
        };
    }

    /** Apache's label form of a code's name: lower case. */
    private static String codeName(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    private static String lower(String value) {
        return value == null ? "" : value.toLowerCase(Locale.ROOT);
    }

    private static String system(String topic) {
        return String.valueOf(SystemTopics.isSystemTopic(topic));
    }

    private static String system(String topic, String group) {
        return String.valueOf(SystemTopics.isSystemTopic(topic) || SystemTopics.hasSystemGroupPrefix(group));
    }
}
