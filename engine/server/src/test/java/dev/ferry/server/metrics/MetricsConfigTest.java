package dev.ferry.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.FerryServerProperties;
import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    void shouldReadTheEndpointsBoundsFromTheirKeysAndDefaultThemOtherwise() {
        MetricsConfig defaults = config("metricsExporterType", "PROM").metrics();
        assertThat(defaults.headerTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(defaults.idleTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(defaults.maxConnections()).isEqualTo(16);
        assertThat(defaults.maxHeaderBytes()).isEqualTo(8192);
        assertThat(defaults.scrapeThreads()).isEqualTo(2);

        MetricsConfig set = config("metricsExporterType", "PROM", "metricsHeaderTimeout", "1500ms",
                "metricsIdleTimeout", "30s", "metricsMaxConnections", "8", "metricsMaxHeaderBytes", "4096",
                "metricsScrapeThreads", "3").metrics();
        assertThat(set).isEqualTo(MetricsConfig.builder().exporterType(MetricsConfig.ExporterType.PROM)
                .headerTimeout(Duration.ofMillis(1500)).idleTimeout(Duration.ofSeconds(30)).maxConnections(8)
                .maxHeaderBytes(4096).scrapeThreads(3).build());
    }

    @Test
    void shouldRefuseEachBadBoundNamingItsKeyAndValue() {
        for (String[] bad : new String[][] {
            {"metricsHeaderTimeout", "0s"}, {"metricsHeaderTimeout", "2h"}, {"metricsHeaderTimeout", "soon"},
            {"metricsIdleTimeout", "0ms"}, {"metricsIdleTimeout", "61m"},
            {"metricsMaxConnections", "0"}, {"metricsMaxConnections", "1025"}, {"metricsMaxConnections", "many"},
            {"metricsMaxHeaderBytes", "1023"}, {"metricsMaxHeaderBytes", "65537"},
            {"metricsScrapeThreads", "0"}, {"metricsScrapeThreads", "17"}}) {
            assertThatThrownBy(() -> config("metricsExporterType", "PROM", bad[0], bad[1])).as(bad[0] + "=" + bad[1])
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad[0] + " = ")
                    .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(bad[1], "must be positive and at most 1h"));
        }
    }
}
