package dev.ferry.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsConfigTest {
    @TempDir
    Path dir;

    private FerryServerConfig config(String... keysAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            properties.setProperty(keysAndValues[i], keysAndValues[i + 1]);
        }
        return FerryServerProperties.apply(FerryServerConfig.builder(dir), properties).build();
    }

    @Test
    void metricsAreOffUnlessAskedForUnderApachesKeys() {
        assertThat(config().metrics().enabled()).isFalse();
        MetricsConfig prom = config("metricsExporterType", "prom", "metricsPromExporterHost", "127.0.0.1",
                "metricsPromExporterPort", "15557").metrics();
        assertThat(prom).isEqualTo(new MetricsConfig(MetricsConfig.ExporterType.PROM, "127.0.0.1", 15557));
        assertThat(config("metricsExporterType", "PROM").metrics().port()).isEqualTo(5557);
    }

    @Test
    void exportersFerryDoesNotHaveAndBadPortsAreRefusedByName() {
        assertThatThrownBy(() -> config("metricsExporterType", "OTLP_GRPC"))
                .hasMessageContaining("metricsExporterType = OTLP_GRPC").hasMessageContaining("DISABLE or PROM");
        assertThatThrownBy(() -> config("metricsExporterType", "PROM", "metricsPromExporterPort", "70000"))
                .hasMessageContaining("metricsPromExporterPort = 70000");
    }
}
