package dev.ferry.client;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;

/**
 * The plugins a client's consumers use, looked up by name through {@link java.util.ServiceLoader} with the
 * client's configured class loader (never the thread's context loader). Registries load on first use.
 */
final class ClientPlugins {
    private final ClassLoader loader;
    private volatile PluginRegistry<AllocateStrategyProvider> strategies;
    private volatile PluginRegistry<OffsetStoreProvider> offsetStores;

    ClientPlugins(ClassLoader loader) {
        this.loader = loader;
    }

    AllocateStrategy allocateStrategy(String name, PluginConfig config) {
        PluginRegistry<AllocateStrategyProvider> registry = strategies;
        if (registry == null) {
            registry = PluginRegistry.load(AllocateStrategyProvider.KIND, loader);
            strategies = registry;
        }
        return AllocateStrategyResolver.over(registry).create(name, config);
    }

    OffsetStore offsetStore(String name, OffsetStoreContext context) {
        PluginRegistry<OffsetStoreProvider> registry = offsetStores;
        if (registry == null) {
            registry = PluginRegistry.load(OffsetStoreProvider.KIND, loader);
            offsetStores = registry;
        }
        return registry.get(name).create(context, PluginConfig.empty());
    }
}
