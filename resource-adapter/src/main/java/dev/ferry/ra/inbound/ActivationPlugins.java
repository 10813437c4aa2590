package dev.ferry.ra.inbound;

import dev.ferry.client.Subscription;
import dev.ferry.ra.PropertyProblems;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginException;
import dev.ferry.spi.PluginKind;
import dev.ferry.spi.PluginProvider;
import dev.ferry.spi.PluginRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks that the plugins an activation names are there, in the class loaders its consumer will look them up in,
 * and names what was found when one is not: a misspelt strategy is refused when the bean is activated, not when
 * the first rebalance fails.
 */
final class ActivationPlugins {
    private final List<ClassLoader> loaders;
    /** Whether every filter the broker has is among the loaders' (the embedded broker's are). */
    private final boolean brokerFiltersKnown;

    /**
     * @param loaders where the activation's consumer looks plugins up
     * @param brokerFiltersKnown whether the broker has no filter plugin the loaders lack, so that a filter the
     *     loaders do not have exists nowhere; with a remote broker, a filter type may be the broker's own
     */
    ActivationPlugins(List<ClassLoader> loaders, boolean brokerFiltersKnown) {
        this.loaders = List.copyOf(loaders);
        this.brokerFiltersKnown = brokerFiltersKnown;
    }

    void check(ActivationConfig config, PropertyProblems problems) {
        require(AllocateStrategyProvider.KIND, "allocateStrategy", config.allocateStrategy(), problems);
        config.offsetStore().ifPresent(store -> require(OffsetStoreProvider.KIND, "offsetStore", store, problems));
        String type = config.selectorType();
        if (!type.equals(Subscription.TAG) && !type.equals(Subscription.SQL92) && brokerFiltersKnown) {
            require(MessageFilterProvider.KIND, "selectorType", type, problems);
        }
    }

    private <P extends PluginProvider> void require(PluginKind<P> kind, String property, String name,
                                                     PropertyProblems problems) {
        PluginRegistry<P> registry;
        try {
            registry = PluginRegistry.load(kind, loaders);
        } catch (PluginException e) {
            problems.add(property, name, "the " + kind.label() + " plugins cannot be loaded: " + e.getMessage());
            return;
        }
        if (registry.find(name).isEmpty()) {
            List<String> found = new ArrayList<>();
            if (kind == MessageFilterProvider.KIND) {
                found.add(Subscription.TAG);
                found.add(Subscription.SQL92);
            }
            found.addAll(registry.names());
            problems.add(property, name, "no " + kind.label() + " plugin of that name; found: "
                    + String.join(", ", found));
        }
    }
}
