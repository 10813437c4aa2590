package dev.ferry.server.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The Prometheus endpoint: {@code /metrics} (and {@code /}) on the configured address, in Prometheus' text format,
 * served by one thread of the server's own; scrapes beyond a few waiting are refused rather than queued.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(MetricsEndpoint.class.getName());
    private final HTTPServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(HTTPServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** @throws UncheckedIOException naming the address when it cannot be bound */
    public static MetricsEndpoint start(MetricsConfig config, PrometheusRegistry registry, ThreadFactory threads) {
        ExecutorService executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(16), threads, new ThreadPoolExecutor.DiscardPolicy());
        try {
            HTTPServer server = HTTPServer.builder().hostname(config.host()).port(config.port()).registry(registry)
                    .executorService(executor).buildAndStart();
            LOG.log(System.Logger.Level.INFO, "metrics at http://{0}:{1}/metrics", config.host(),
                    String.valueOf(server.getPort()));
            return new MetricsEndpoint(server, executor);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new UncheckedIOException("cannot serve metrics at " + config.host() + ":" + config.port()
                    + " (metricsPromExporterHost, metricsPromExporterPort)", e);
        }
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
        executor.shutdownNow();
    }
}
