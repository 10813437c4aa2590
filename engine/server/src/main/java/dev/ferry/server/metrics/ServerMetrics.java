package dev.ferry.server.metrics;

import dev.ferry.server.broker.Broker;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.OptionalInt;
import java.util.concurrent.ThreadFactory;

/**
 * A server's metrics when they are on: the registry the broker's metrics are kept in and the endpoint that serves
 * them. Apache's name server publishes no metrics; neither does Ferry's.
 */
public final class ServerMetrics implements AutoCloseable {
    private final MetricsConfig config;
    private final ThreadFactory threads;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private volatile MetricsEndpoint endpoint;

    public ServerMetrics(MetricsConfig config, Broker broker, ThreadFactory threads) {
        this.config = config;
        this.threads = threads;
        BrokerMetrics.register(broker, registry);
    }

    /** Serves the metrics. */
    public void start() {
        endpoint = MetricsEndpoint.start(config, registry, threads);
    }

    /** The port they are served on, once started. */
    public OptionalInt port() {
        MetricsEndpoint served = endpoint;
        return served == null ? OptionalInt.empty() : OptionalInt.of(served.port());
    }

    /** Everything registered, for other exporters. */
    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        MetricsEndpoint served = endpoint;
        if (served != null) {
            served.close();
        }
    }
}
