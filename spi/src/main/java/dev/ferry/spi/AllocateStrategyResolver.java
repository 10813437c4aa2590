package dev.ferry.spi;

import java.util.Objects;

/** Creates allocate strategies by name: what engine code and wrapping strategies use. */
@FunctionalInterface
public interface AllocateStrategyResolver {

    /**
     * @param name the strategy's name, any case
     * @param config its settings
     * @return a new strategy
     * @throws UnknownPluginException if no strategy has that name
     * @throws PluginConfigException if the configuration is invalid
     */
    AllocateStrategy create(String name, PluginConfig config);

    /**
     * @param registry the allocate strategy providers to draw on
     * @return a resolver that looks names up in {@code registry} and passes itself to the providers
     */
    static AllocateStrategyResolver over(PluginRegistry<AllocateStrategyProvider> registry) {
        Objects.requireNonNull(registry, "registry");
        return new AllocateStrategyResolver() {
            @Override
            public AllocateStrategy create(String name, PluginConfig config) {
                return registry.get(name).create(config, this);
            }
        };
    }
}
