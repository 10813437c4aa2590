package dev.ferry.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.server.FerryServerConfig;
import dev.ferry.store.FlushMode;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class EmbeddedEngineTest {
    @TempDir
    Path dir;

    @Test
    void shouldNameEveryBadSettingAtOnce() {
        Properties file = new Properties();
        file.setProperty("maxTopix", "7");
        EmbeddedEngine.Settings settings = EmbeddedEngine.settings(dir).host(" ").namesrvPort(-1).brokerPort(70_000)
                .commitLogSegmentSize(10).messageDelayLevel("1s soon").flushMode("SOMETIMES").brokerName("broker a")
                .clusterName("").engineConfig(file);

        assertThat(settings.problems()).extracting(EmbeddedEngine.Problem::property).containsExactlyInAnyOrder(
                "host", "namesrvPort", "brokerPort", "commitLogSegmentSize", "messageDelayLevel", "flushMode",
                "brokerName", "clusterName", "engineConfig");
        assertThatThrownBy(settings::start).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("flushMode = SOMETIMES: must be ASYNC_FLUSH or SYNC_FLUSH")
                .hasMessageContaining("unknown key 'maxTopix'");
    }

    @Test
    void shouldReportAValueTheEngineRefusesWhenItBuildsUnderTheSettingsName() {
        Properties file = new Properties();
        file.setProperty("maxTopics", "-3");

        assertThat(EmbeddedEngine.settings(dir).engineConfig(file).problems()).singleElement()
                .satisfies(p -> assertThat(p.property()).isEqualTo("engineConfig"))
                .satisfies(p -> assertThat(p.rule()).contains("maxTopics = -3"));
    }

    @Test
    void shouldStartWithTheSettingsGivenAndStopCleanly() {
        Properties file = new Properties();
        file.setProperty("maxConnections", "77");
        try (EmbeddedEngine engine = EmbeddedEngine.settings(dir).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).flushMode("sync_flush").brokerName("broker-e").clusterName("c1")
                .autoCreateTopics(false).messageDelayLevel("1s 2s").engineConfig(file).start()) {
            FerryServerConfig config = engine.server().config();

            assertThat(engine.nameServerAddress()).isEqualTo("127.0.0.1:" + engine.namesrvPort());
            assertThat(engine.brokerPort()).isPositive();
            assertThat(config.store().flushMode()).isEqualTo(FlushMode.SYNC_FLUSH);
            assertThat(config.store().commitLogSegmentSize()).isEqualTo(1 << 20);
            assertThat(config.broker().brokerName()).isEqualTo("broker-e");
            assertThat(config.broker().clusterName()).isEqualTo("c1");
            assertThat(config.broker().autoCreateTopics()).isFalse();
            assertThat(config.broker().delayLevels().delays()).hasSize(2);
            assertThat(config.broker().remotingLimits().maxConnections()).isEqualTo(77);
            assertThat(config.broker().nameServers()).containsExactly(engine.nameServerAddress());
        }
    }

    @Test
    void shouldJoinAnotherEnginesNameServerAsABrokerOfTheSameCluster() {
        try (EmbeddedEngine first = EmbeddedEngine.settings(dir.resolve("first")).namesrvPort(0).brokerPort(0)
                .commitLogSegmentSize(1 << 20).brokerName("broker-1").clusterName("shared").start();
             EmbeddedEngine second = EmbeddedEngine.settings(dir.resolve("second")).brokerPort(0)
                     .commitLogSegmentSize(1 << 20).brokerName("broker-2").clusterName("shared")
                     .nameServer(first.nameServerAddress()).start()) {
            assertThat(second.server().config().role()).isEqualTo(FerryServerConfig.Role.BROKER);
            assertThat(second.nameServerAddress()).as("its clients ask the cluster's name server")
                    .isEqualTo(first.nameServerAddress());
            assertThatThrownBy(second::namesrvPort).isInstanceOf(IllegalStateException.class);
            assertThat(first.server().nameServer().routes().clusterInfo().clusterAddrTable().get("shared"))
                    .containsExactlyInAnyOrder("broker-1", "broker-2");
        }
    }

    @Test
    void shouldRefuseABadNameServerListAndANegativeBrokerIdByName() {
        assertThat(EmbeddedEngine.settings(dir).nameServer("localhost").brokerId(-1).problems())
                .extracting(EmbeddedEngine.Problem::property).containsExactlyInAnyOrder("nameServer", "brokerId");
        assertThat(EmbeddedEngine.settings(dir).nameServer("127.0.0.1:9876").brokerId(1).problems())
                .as("a slave of broker-a").isEmpty();
    }
}
