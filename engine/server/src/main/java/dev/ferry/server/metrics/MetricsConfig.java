package dev.ferry.server.metrics;

import dev.ferry.format.ConfigProblems;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * Whether and where the broker and name server publish their metrics, under Apache's keys: {@code
 * metricsExporterType} ({@code DISABLE}, the default, or {@code PROM}), {@code metricsPromExporterHost} and {@code
 * metricsPromExporterPort} (Apache's 5557). The name server, in the same process, publishes on the same endpoint.
 * Ferry's own keys bound what a client of that endpoint can hold (Apache's exporter bounds none of it).
 *
 * @param host           the address the Prometheus endpoint listens on
 * @param port           its port (0 picks a free one)
 * @param headerTimeout  {@code metricsHeaderTimeout}: a request's line and headers must have arrived within this of the
 *                       connection's start, or of the request's first byte on a connection kept alive
 * @param idleTimeout    {@code metricsIdleTimeout}: a kept-alive connection with no request begun, or an answer the
 *                       client does not read, is closed after this
 * @param maxConnections {@code metricsMaxConnections}: connections open at once; one beyond closes the oldest that is
 *                       not being answered (never served first, then idle), or is itself refused when all are
 * @param maxHeaderBytes {@code metricsMaxHeaderBytes}: bytes of a request line, and of its headers together
 * @param scrapeThreads  {@code metricsScrapeThreads}: scrapes collected and written at once
 */
public record MetricsConfig(ExporterType exporterType, String host, int port, Duration headerTimeout,
                            Duration idleTimeout, int maxConnections, int maxHeaderBytes, int scrapeThreads) {
    private static final ConfigProblems CHECK = ConfigProblems.FAIL_FAST;
    public static final int DEFAULT_PORT = 5557;
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(5);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(120);
    public static final int DEFAULT_MAX_CONNECTIONS = 16;
    public static final int DEFAULT_MAX_HEADER_BYTES = 8192;
    public static final int DEFAULT_SCRAPE_THREADS = 2;
    private static final Duration MAX_TIMEOUT = Duration.ofHours(1);
    public static final MetricsConfig DISABLED = new MetricsConfig(ExporterType.DISABLE, "0.0.0.0", DEFAULT_PORT);

    /** Apache's exporter types; Ferry publishes to Prometheus, the others are refused by name. */
    public enum ExporterType {
        DISABLE, PROM;

        /** @throws IllegalArgumentException naming the key, the value and what is taken */
        public static ExporterType parse(String value) {
            String upper = value.trim().toUpperCase(Locale.ROOT);
            for (ExporterType type : values()) {
                if (type.name().equals(upper)) {
                    return type;
                }
            }
            throw new IllegalArgumentException("metricsExporterType = " + value + ": Ferry exports DISABLE or PROM"
                    + (upper.equals("OTLP_GRPC") || upper.equals("LOG") ? " (" + upper + " is Apache's, not Ferry's)"
                    : ""));
        }
    }

    /** @throws IllegalArgumentException naming the key and value of the first bad setting */
    public MetricsConfig {
        Objects.requireNonNull(exporterType, "exporterType");
        Objects.requireNonNull(host, "host");
        CHECK.require(port >= 0 && port <= 65535, "metricsPromExporterPort", port, "must be within 0..65535");
        requireTimeout("metricsHeaderTimeout", headerTimeout);
        requireTimeout("metricsIdleTimeout", idleTimeout);
        CHECK.require(maxConnections >= 1 && maxConnections <= 1024, "metricsMaxConnections", maxConnections,
                "must be within 1..1024");
        CHECK.require(maxHeaderBytes >= 1024 && maxHeaderBytes <= 65536, "metricsMaxHeaderBytes", maxHeaderBytes,
                "must be within 1024..65536");
        CHECK.require(scrapeThreads >= 1 && scrapeThreads <= 16, "metricsScrapeThreads", scrapeThreads,
                "must be within 1..16");
    }

    /** The endpoint at {@code host:port} with the default bounds. */
    public MetricsConfig(ExporterType exporterType, String host, int port) {
        this(exporterType, host, port, DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_HEADER_BYTES, DEFAULT_SCRAPE_THREADS);
    }

    public boolean enabled() {
        return exporterType == ExporterType.PROM;
    }

    /** A builder starting from {@link #DISABLED}. */
    public static Builder builder() {
        return DISABLED.toBuilder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static void requireTimeout(String key, Duration value) {
        Objects.requireNonNull(value, key);
        CHECK.require(!value.isNegative() && !value.isZero() && value.compareTo(MAX_TIMEOUT) <= 0, key, value,
                "must be positive and at most 1h");
    }

    /** Settings checked together by {@link #build()}. */
    public static final class Builder {
        private ExporterType exporterType;
        private String host;
        private int port;
        private Duration headerTimeout;
        private Duration idleTimeout;
        private int maxConnections;
        private int maxHeaderBytes;
        private int scrapeThreads;

        private Builder(MetricsConfig from) {
            exporterType = from.exporterType;
            host = from.host;
            port = from.port;
            headerTimeout = from.headerTimeout;
            idleTimeout = from.idleTimeout;
            maxConnections = from.maxConnections;
            maxHeaderBytes = from.maxHeaderBytes;
            scrapeThreads = from.scrapeThreads;
        }

        public Builder exporterType(ExporterType value) {
            exporterType = value;
            return this;
        }

        public Builder host(String value) {
            host = value;
            return this;
        }

        public Builder port(int value) {
            port = value;
            return this;
        }

        public Builder headerTimeout(Duration value) {
            headerTimeout = value;
            return this;
        }

        public Builder idleTimeout(Duration value) {
            idleTimeout = value;
            return this;
        }

        public Builder maxConnections(int value) {
            maxConnections = value;
            return this;
        }

        public Builder maxHeaderBytes(int value) {
            maxHeaderBytes = value;
            return this;
        }

        public Builder scrapeThreads(int value) {
            scrapeThreads = value;
            return this;
        }

        /** @throws IllegalArgumentException naming the key and value of the first bad setting */
        public MetricsConfig build() {
            return new MetricsConfig(exporterType, host, port, headerTimeout, idleTimeout, maxConnections,
                    maxHeaderBytes, scrapeThreads);
        }
    }
}
