package dev.ferry.server.metrics;

import java.util.Locale;
import java.util.Objects;

/**
 * Whether and where the broker and name server publish their metrics, under Apache's keys: {@code
 * metricsExporterType} ({@code DISABLE}, the default, or {@code PROM}), {@code metricsPromExporterHost} and {@code
 * metricsPromExporterPort} (Apache's 5557). The name server, in the same process, publishes on the same endpoint.
 *
 * @param host the address the Prometheus endpoint listens on
 * @param port its port (0 picks a free one)
 */
public record MetricsConfig(ExporterType exporterType, String host, int port) {
    public static final int DEFAULT_PORT = 5557;
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

    public MetricsConfig {
        Objects.requireNonNull(exporterType, "exporterType");
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("metricsPromExporterPort = " + port + ": must be within 0..65535");
        }
    }

    public boolean enabled() {
        return exporterType == ExporterType.PROM;
    }
}
