package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.remoting.Credentials;
import dev.ferry.remoting.TlsConfig;
import jakarta.resource.spi.ResourceAdapterInternalException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter's JavaBean properties, as a server sets them, read into its settings. */
class AdapterConfigReaderTest {
    @TempDir
    Path directory;

    @Test
    void shouldReadTheDeclaredDefaultsAsTheBuildersDefaults() throws Exception {
        AdapterConfig config = AdapterConfigReader.read(new FerryResourceAdapter());

        assertThat(config).isEqualTo(AdapterConfig.builder(Path.of("ferry-data")).build());
        assertThat(config.mode()).isEqualTo(AdapterConfig.Mode.EMBEDDED);
        assertThat(config.namesrvPort()).isEqualTo(9876);
        assertThat(config.brokerPort()).isEqualTo(10911);
        assertThat(config.commitLogSegmentSize()).isEqualTo(128 * 1024 * 1024);
        assertThat(config.threadPlacement()).isEqualTo(WorkManagerThreadFactory.Placement.SPAWNED);
        assertThat(config.clientTls()).isEqualTo(TlsConfig.DISABLED);
    }

    @Test
    void shouldReadRemoteModeWithItsNameServersUserAndTls() throws Exception {
        FerryResourceAdapter properties = TestAdapters.remote(" 10.0.0.1:9876;10.0.0.2:9876 ", directory);
        properties.setMode("Remote");
        properties.setThreadPlacement(" work ");
        properties.setUseTls(true);
        properties.setAccessKey(" app ");
        properties.setSecretKey("app-secret");

        AdapterConfig config = AdapterConfigReader.read(properties);

        assertThat(config.mode()).isEqualTo(AdapterConfig.Mode.REMOTE);
        assertThat(config.nameServer()).contains("10.0.0.1:9876;10.0.0.2:9876");
        assertThat(config.storeDir()).isEqualTo(directory);
        assertThat(config.threadPlacement()).isEqualTo(WorkManagerThreadFactory.Placement.WORK);
        assertThat(config.clientTls().mode()).isNotEqualTo(TlsConfig.Mode.DISABLED);
        assertThat(config.credentials()).map(Credentials::accessKey).contains("app");
        assertThat(config.toString()).doesNotContain("app-secret");
    }

    @Test
    void shouldNameEveryUnsetPropertyAtOnce() {
        FerryResourceAdapter properties = new FerryResourceAdapter();
        properties.setNamesrvPort(null);
        properties.setCommitLogSegmentSize(null);
        properties.setAutoCreateTopics(null);
        properties.setBrokerId(null);
        properties.setStoreDir(" ");

        assertThatThrownBy(() -> AdapterConfigReader.read(properties))
                .isInstanceOf(ResourceAdapterInternalException.class)
                .hasMessageStartingWith("FERRY-RA-0002 invalid resource adapter configuration (5 bad properties)")
                .hasMessageContaining("namesrvPort = 'null': must be set")
                .hasMessageContaining("commitLogSegmentSize = 'null': must be set")
                .hasMessageContaining("autoCreateTopics = 'null': must be true or false")
                .hasMessageContaining("brokerId = 'null': must be set")
                .hasMessageContaining("storeDir = ' ': must be a directory path");
    }

    @Test
    void shouldRefuseAHalfUserWithoutShowingTheSecret() {
        FerryResourceAdapter properties = new FerryResourceAdapter();
        properties.setSecretKey("half-secret");

        assertThatThrownBy(() -> AdapterConfigReader.read(properties))
                .hasMessageContaining("accessKey and secretKey are given together")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("half-secret"));
    }

    @Test
    void shouldRefuseAnEngineConfigFileThatCannotBeRead() {
        FerryResourceAdapter properties = new FerryResourceAdapter();
        properties.setEngineConfig(directory.resolve("missing.properties").toString());

        assertThatThrownBy(() -> AdapterConfigReader.read(properties))
                .hasMessageContaining("engineConfig = '")
                .hasMessageContaining("cannot be read as a properties file");
    }

    @Test
    void shouldKeepAnOptionalNameServerOutOfEmbeddedModeWhenBlank() throws Exception {
        FerryResourceAdapter properties = TestAdapters.embedded(directory);
        properties.setNameServer("  ");

        assertThat(AdapterConfigReader.read(properties).nameServer()).isEqualTo(Optional.empty());
    }
}
