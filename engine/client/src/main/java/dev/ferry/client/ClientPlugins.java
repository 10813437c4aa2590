package dev.ferry.client;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.PluginRegistry;
import java.util.List;
import java.util.Optional;

/**
 * The plugins a client's consumers use, looked up by name through {@link java.util.ServiceLoader} with the
 * client's configured class loaders (never the thread's context loader), and inside an OSGi framework also among
 * its bundles. Looked up again for each consumer, which is rare and cheap: a plugin that appears while the client
 * runs (a bundle installed into the framework, say) serves the consumers created after it.
 */
final class ClientPlugins {
    private final List<ClassLoader> loaders;

    ClientPlugins(List<ClassLoader> loaders) {
        this.loaders = List.copyOf(loaders);
    }

    AllocateStrategy allocateStrategy(String name, PluginConfig config) {
        return AllocateStrategyResolver.over(PluginRegistry.load(AllocateStrategyProvider.KIND, loaders))
                .create(name, config);
    }

    OffsetStore offsetStore(String name, OffsetStoreContext context, PluginConfig config) {
        return PluginRegistry.load(OffsetStoreProvider.KIND, loaders).get(name).create(context, config);
    }

    /**
     * How the client reads {@code subscription}: TAG and SQL92 are the broker's; another expression type is
     * evaluated here when the client has a filter plugin of that name (then any broker serves it, Apache's
     * included), and otherwise left to the broker, which may have the plugin itself.
     *
     * @throws dev.ferry.spi.FilterExpressionException if the client's plugin refuses the expression
     */
    SubscriptionFilter subscriptionFilter(Subscription subscription, long subVersion) {
        String type = subscription.expressionType();
        if (type.equalsIgnoreCase(Subscription.TAG) || type.equalsIgnoreCase(Subscription.SQL92)) {
            return new SubscriptionFilter(subscription, subVersion);
        }
        Optional<MessageFilterProvider> provider = PluginRegistry.load(MessageFilterProvider.KIND, loaders).find(type);
        if (provider.isEmpty()) {
            return new SubscriptionFilter(subscription, subVersion);
        }
        MessageFilter filter = provider.get().compile(subscription.expression());
        return new SubscriptionFilter(subscription, subVersion, filter);
    }
}
