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
 * client's configured class loader (never the thread's context loader), and inside an OSGi framework also among
 * its bundles. Looked up again for each consumer, which is rare and cheap: a plugin that appears while the client
 * runs (a bundle installed into the framework, say) serves the consumers created after it.
 */
final class ClientPlugins {
    private final ClassLoader loader;

    ClientPlugins(ClassLoader loader) {
        this.loader = loader;
    }

    AllocateStrategy allocateStrategy(String name, PluginConfig config) {
        return AllocateStrategyResolver.over(PluginRegistry.load(AllocateStrategyProvider.KIND, loader))
                .create(name, config);
    }

    OffsetStore offsetStore(String name, OffsetStoreContext context) {
        return PluginRegistry.load(OffsetStoreProvider.KIND, loader).get(name).create(context, PluginConfig.empty());
    }
}
