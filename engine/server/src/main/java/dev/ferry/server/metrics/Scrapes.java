package dev.ferry.server.metrics;

import dev.ferry.format.ThreadRoles;
import io.netty.handler.codec.http.FullHttpResponse;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Collects and writes scrapes on threads of their own ({@code metricsScrapeThreads}), off the event loop, so a slow
 * scrape never holds up reading or answering other connections. Each connection has at most one scrape waiting, so the
 * queue holds at most one per connection.
 */
final class Scrapes implements AutoCloseable {
    private final PrometheusScrapeHandler handler;
    private final ThreadPoolExecutor threads;

    Scrapes(MetricsConfig config, PrometheusRegistry registry, ThreadFactory threadFactory) {
        this.handler = new PrometheusScrapeHandler(registry);
        this.threads = new ThreadPoolExecutor(config.scrapeThreads(), config.scrapeThreads(), 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(config.maxConnections()),
                ThreadRoles.named("ferry-metrics-scrape", threadFactory), new ThreadPoolExecutor.AbortPolicy());
    }

    /**
     * Scrapes for {@code exchange} and gives {@code answer} the response, on a scrape thread; nothing when
     * {@code wanted} says the connection has gone meanwhile.
     *
     * @throws RejectedExecutionException when as many scrapes wait as there may be connections, or after close
     */
    void scrape(ScrapeExchange exchange, BooleanSupplier wanted, Consumer<FullHttpResponse> answer) {
        threads.execute(() -> {
            if (!wanted.getAsBoolean()) {
                return;
            }
            try {
                handler.handleRequest(exchange);
            } catch (IOException e) { // the handler reports its failures to the exchange; this one it passed on
                exchange.handleException(e);
            }
            answer.accept(exchange.toResponse());
        });
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
