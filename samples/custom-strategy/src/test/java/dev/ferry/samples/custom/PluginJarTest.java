package dev.ferry.samples.custom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageQueue;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.FilterExpressionException;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Loads this module's plugins the way an application server does: the host (here the test, with the
 * spi and the built-in strategies) is the parent; the plugin classes come from a class loader of their
 * own. The plugin's classes are kept off the test class path by the pom.
 */
class PluginJarTest {

    private static final String PLUGIN_CLASS = "dev/ferry/samples/custom/QueueIdModuloStrategyProvider.class";

    private final ClassLoader host = getClass().getClassLoader();
    private URLClassLoader plugins;

    @BeforeEach
    void openPluginClassLoader() throws IOException {
        // Surefire runs in the module directory; compile has produced the classes by now.
        URL classes = Path.of("target", "classes").toAbsolutePath().toUri().toURL();
        plugins = new URLClassLoader("custom-plugins", new URL[] {classes}, host);
    }

    @AfterEach
    void closePluginClassLoader() throws IOException {
        plugins.close();
    }

    @Test
    void shouldKeepThePluginOffTheHostClassPath() {
        assertThat(host.getResource(PLUGIN_CLASS)).isNull();
        assertThat(plugins.getResource(PLUGIN_CLASS)).isNotNull();
        assertThat(PluginRegistry.load(AllocateStrategyProvider.KIND, host).find("queue-id-modulo")).isEmpty();
    }

    @Test
    void shouldFindTheCustomStrategyByNameNextToTheBuiltIns() {
        PluginRegistry<AllocateStrategyProvider> registry = PluginRegistry.load(AllocateStrategyProvider.KIND, plugins);

        assertThat(registry.names()).contains("averagely", "consistent-hash", "sticky", "queue-id-modulo");
        AllocateStrategy strategy = AllocateStrategyResolver.over(registry).create("Queue-Id-Modulo", PluginConfig.empty());
        assertThat(strategy.getClass().getClassLoader()).isSameAs(plugins);

        List<MessageQueue> queues = List.of(new MessageQueue("T", "a", 0), new MessageQueue("T", "a", 1),
                new MessageQueue("T", "b", 0), new MessageQueue("T", "b", 1));
        assertThat(strategy.allocate("g", "c1", queues, List.of("c0", "c1")))
                .containsExactly(queues.get(1), queues.get(3));
    }

    @Test
    void shouldFindTheCustomFilterTypeByNameNextToTheBuiltIns() {
        PluginRegistry<MessageFilterProvider> registry = PluginRegistry.load(MessageFilterProvider.KIND, plugins);

        assertThat(registry.names()).containsExactly("SQL92", "TAG", "TAG_REGEX");
        MessageFilter filter = registry.get("tag_regex").compile("order-(paid|shipped)");
        assertThat(filter.matches(FilterableMessage.of(Map.of("TAGS", "order-paid")))).isTrue();
        assertThat(filter.matches(FilterableMessage.of(Map.of("TAGS", "order-cancelled")))).isFalse();
        assertThat(registry.get("SQL92").compile("a = 1").matches(FilterableMessage.of(Map.of("a", "1")))).isTrue();
        assertThatThrownBy(() -> registry.get("TAG_REGEX").compile("order-("))
                .isInstanceOf(FilterExpressionException.class)
                .hasMessageStartingWith("Invalid TAG_REGEX expression at position");
    }
}
