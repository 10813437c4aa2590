package dev.ferry.liberty.embedded;

import static dev.ferry.liberty.embedded.EmbeddedServer.HTTP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.liberty.apps.ModuloMdb;
import dev.ferry.liberty.apps.RegexMdb;
import dev.ferry.liberty.apps.UnknownPluginMdb;
import dev.ferry.liberty.support.FilterRoundTrip;
import dev.ferry.liberty.support.StrategyRoundTrip;
import dev.ferry.liberty.support.TestApps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter's plugin directory holds the sample plugin jar (samples/custom-strategy); the beans of plugin-app name
 * its strategy and its filter, and one names a strategy nobody has.
 */
@ExtendWith(ArquillianExtension.class)
class PluginDirTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Deployment(testable = false)
    static WebArchive pluginApp() {
        return TestApps.probeApp("plugin-app", ModuloMdb.class, RegexMdb.class, UnknownPluginMdb.class);
    }

    @Test
    void shouldGiveTheBeanItsQueuesAsThePluginStrategyAssignsThem() {
        StrategyRoundTrip.assertModulo(StrategyRoundTrip.run(HTTP, "plugin-app", EmbeddedServer.NAME_SERVER,
                directory));
    }

    @Test
    void shouldDeliverOnlyWhatThePluginFilterSelects() {
        assertThat(FilterRoundTrip.run(HTTP, "plugin-app", EmbeddedServer.NAME_SERVER, directory))
                .isEqualTo(FilterRoundTrip.SELECTED);
    }

    @Test
    void shouldRefuseAnUnknownStrategyNamingThePropertyAndThePluginsFound() {
        await().atMost(WAIT).until(() -> !refusals().isEmpty());
        assertThat(refusals().get(0)).contains("allocateStrategy = 'no-such-strategy'",
                "no allocate strategy plugin of that name; found: ", "averagely", "queue-id-modulo");
        assertThat(EmbeddedServer.LOG.linesWith("FERRY-RA-0220")).noneMatch(line -> line.contains("plugin-unknown"));
    }

    private static List<String> refusals() {
        return EmbeddedServer.LOG.linesWith("no-such-strategy").stream()
                .filter(line -> line.contains("FERRY-RA-0201")).toList();
    }
}
