package dev.ferry.server.apache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.format.Clock;
import dev.ferry.server.FerryServer;
import dev.ferry.server.FerryServerConfig;
import dev.ferry.server.PluginInventory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The start-up line that tells an operator which plugins the server found, and where. */
@Tag("integration")
class PluginInventoryTest {
    @Test
    void shouldListBuiltInPluginsAndThoseOfThePluginDirectoryByKind(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));
        Path jar = FilterPluginTest.sampleJar();
        Files.copy(jar, plugins.resolve(jar.getFileName()));

        try (FerryServer server = new FerryServer(config(dir, plugins), Clock.system(), Thread::new)) {
            PluginInventory inventory = server.plugins().orElseThrow();

            assertThat(inventory.builtIn().get("message filter")).contains("SQL92", "TAG");
            assertThat(inventory.builtIn().get("allocate strategy")).contains("averagely");
            assertThat(inventory.fromDir()).containsEntry("message filter", List.of("TAG_REGEX"))
                    .containsEntry("allocate strategy", List.of("queue-id-modulo"));
            assertThat(inventory.describe()).startsWith("Plugins built in: message filter ")
                    .contains("; from " + plugins.toAbsolutePath() + ": message filter TAG_REGEX; "
                            + "allocate strategy queue-id-modulo");
        }
    }

    @Test
    void shouldSayThePluginDirectoryGaveNothingWhenItHoldsNoPlugin(@TempDir Path dir) throws Exception {
        Path plugins = Files.createDirectories(dir.resolve("plugins"));

        try (FerryServer server = new FerryServer(config(dir, plugins), Clock.system(), Thread::new)) {
            assertThat(server.plugins().orElseThrow().describe())
                    .endsWith("; from " + plugins.toAbsolutePath() + ": none");
        }
    }

    private static FerryServerConfig config(Path dir, Path plugins) {
        return FerryServerConfig.builder(dir.resolve("store")).namesrvPort(0).brokerPort(0)
                .pluginDir(plugins).build();
    }
}
