package dev.ferry.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.api.MessageQueue;
import java.util.List;
import org.junit.jupiter.api.Test;

class PluginRegistryTest {

    @Test
    void shouldFindProvidersRegisteredInServiceFilesOfTheGivenClassLoader() {
        PluginRegistry<AllocateStrategyProvider> registry =
                PluginRegistry.load(AllocateStrategyProvider.KIND, getClass().getClassLoader());

        assertThat(registry.names()).containsExactly("first", "Second");
        assertThat(registry.get("first")).isInstanceOf(FirstProvider.class);
    }

    @Test
    void shouldLookNamesUpIgnoringCase() {
        PluginRegistry<AllocateStrategyProvider> registry = registryOf(new FirstProvider(), new SecondProvider());

        assertThat(registry.get("FIRST")).isInstanceOf(FirstProvider.class);
        assertThat(registry.find("second")).containsInstanceOf(SecondProvider.class);
    }

    @Test
    void shouldNameTheUnknownPluginAndTheAvailableOnes() {
        PluginRegistry<AllocateStrategyProvider> registry = registryOf(new FirstProvider(), new SecondProvider());

        assertThatThrownBy(() -> registry.get("x"))
                .isInstanceOf(UnknownPluginException.class)
                .hasMessage("No allocate strategy named 'x'; available: first, Second");
    }

    @Test
    void shouldRefuseTwoPluginsWithOneName() {
        assertThatThrownBy(() -> registryOf(new FirstProvider(), new AnotherFirstProvider()))
                .isInstanceOf(DuplicatePluginException.class)
                .hasMessageContaining("'FIRST'")
                .hasMessageContaining(FirstProvider.class.getName())
                .hasMessageContaining(AnotherFirstProvider.class.getName());
    }

    @Test
    void shouldCreateWrappedStrategiesThroughTheResolver() {
        AllocateStrategyResolver resolver = AllocateStrategyResolver.over(registryOf(new FirstProvider()));

        AllocateStrategy strategy = resolver.create("First", PluginConfig.empty());

        assertThat(strategy.name()).isEqualTo("first");
        assertThatThrownBy(() -> resolver.create("none", PluginConfig.empty()))
                .isInstanceOf(UnknownPluginException.class);
    }

    private static PluginRegistry<AllocateStrategyProvider> registryOf(AllocateStrategyProvider... providers) {
        return PluginRegistry.of(AllocateStrategyProvider.KIND, List.of(providers));
    }

    /** A provider whose strategy takes nothing. */
    public static class FirstProvider implements AllocateStrategyProvider {
        @Override
        public String name() {
            return "first";
        }

        @Override
        public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
            return new AllocateStrategy() {
                @Override
                public String name() {
                    return "first";
                }

                @Override
                public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
                        List<String> clientIds) {
                    return List.of();
                }
            };
        }
    }

    /** A second provider, upper-case name. */
    public static class SecondProvider extends FirstProvider {
        @Override
        public String name() {
            return "Second";
        }
    }

    /** Clashes with {@link FirstProvider}. */
    public static class AnotherFirstProvider extends FirstProvider {
        @Override
        public String name() {
            return "FIRST";
        }
    }
}
