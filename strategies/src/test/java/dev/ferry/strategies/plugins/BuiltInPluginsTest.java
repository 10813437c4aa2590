package dev.ferry.strategies.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginConfigException;
import dev.ferry.spi.PluginRegistry;
import dev.ferry.spi.UnknownPluginException;
import org.junit.jupiter.api.Test;

/** The built-in plugins are found by name through ServiceLoader, as engine code will find them. */
class BuiltInPluginsTest {

    private final ClassLoader loader = getClass().getClassLoader();

    @Test
    void shouldRegisterEveryBuiltInPluginByName() {
        assertThat(PluginRegistry.load(AllocateStrategyProvider.KIND, loader).names()).containsExactly(
                "averagely", "averagely-by-circle", "by-config", "consistent-hash", "machine-room",
                "machine-room-nearby", "sticky");
        assertThat(PluginRegistry.load(OffsetStoreProvider.KIND, loader).names()).containsExactly("broker", "jdbc",
                "local-file");
        assertThat(PluginRegistry.load(MessageFilterProvider.KIND, loader).names()).containsExactly("SQL92", "TAG");
    }

    @Test
    void shouldNameTheUnknownStrategyAndListTheAvailableOnes() {
        AllocateStrategyResolver strategies =
                AllocateStrategyResolver.over(PluginRegistry.load(AllocateStrategyProvider.KIND, loader));

        assertThatThrownBy(() -> strategies.create("round-robin", PluginConfig.empty()))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessage("No allocate strategy named 'round-robin'; available: averagely, averagely-by-circle,"
                        + " by-config, consistent-hash, machine-room, machine-room-nearby, sticky");
    }

    @Test
    void shouldNameTheUnknownFilterType() {
        assertThatThrownBy(() -> PluginRegistry.load(MessageFilterProvider.KIND, loader).get("JSONPATH"))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessage("No message filter named 'JSONPATH'; available: SQL92, TAG");
    }

    @Test
    void shouldNameTheWrappedStrategyWhenItIsUnknown() {
        AllocateStrategyResolver strategies =
                AllocateStrategyResolver.over(PluginRegistry.load(AllocateStrategyProvider.KIND, loader));

        assertThatThrownBy(() -> strategies.create("machine-room-nearby",
                PluginConfig.of("inner", "nope", "client-room-pattern", "@(\\w+)")))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessageStartingWith("No allocate strategy named 'nope'");
    }

    @Test
    void shouldRejectBadStrategyConfigurationNamingKeyAndValue() {
        AllocateStrategyResolver strategies =
                AllocateStrategyResolver.over(PluginRegistry.load(AllocateStrategyProvider.KIND, loader));

        assertThatThrownBy(() -> strategies.create("consistent-hash", PluginConfig.of("virtual-nodes", "-3")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Invalid plugin config 'virtual-nodes' = '-3': expected a positive integer");
        assertThatThrownBy(() -> strategies.create("by-config", PluginConfig.of("queues", "TopicA:broker-a")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Invalid plugin config 'queues' = 'TopicA:broker-a': expected topic:brokerName:queueId"
                        + " items, but 'TopicA:broker-a' is not one");
        assertThatThrownBy(() -> strategies.create("machine-room", PluginConfig.empty()))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Missing plugin config 'consumer-idcs'");
        assertThatThrownBy(() -> strategies.create("machine-room-nearby", PluginConfig.of("client-room-pattern", "@")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("Invalid plugin config 'client-room-pattern' = '@': expected a regular expression with a"
                        + " group for the room");
    }
}
