package dev.ferry.payara.arquillian;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ferry.liberty.apps.ModuloMdb;
import dev.ferry.liberty.apps.RegexMdb;
import dev.ferry.liberty.support.FilterRoundTrip;
import dev.ferry.liberty.support.Http;
import dev.ferry.liberty.support.StrategyRoundTrip;
import dev.ferry.liberty.support.TestApps;
import java.nio.file.Path;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Payara Micro under Arquillian: the adapter's plugin directory holds the sample plugin jar (see
 * {@code src/test/payara/postboot-arquillian.txt}), and the beans of plugin-app use its strategy and its filter, as
 * on Liberty.
 */
@ExtendWith(ArquillianExtension.class)
class PayaraPluginDirTest {
    private static final Http HTTP = new Http(19680);
    private static final String NAME_SERVER = "127.0.0.1:20276";

    @TempDir
    Path offsets;

    @Deployment(testable = false)
    static WebArchive pluginApp() {
        return TestApps.probeApp("plugin-app", ModuloMdb.class, RegexMdb.class);
    }

    @Test
    void shouldGiveTheBeanItsQueuesAsThePluginDirectorysStrategyAssignsThem() {
        StrategyRoundTrip.assertModulo(StrategyRoundTrip.run(HTTP, "plugin-app", NAME_SERVER, offsets));
    }

    @Test
    void shouldDeliverOnlyWhatThePluginDirectorysFilterSelects() {
        assertThat(FilterRoundTrip.run(HTTP, "plugin-app", NAME_SERVER, offsets)).isEqualTo(FilterRoundTrip.SELECTED);
    }
}
