package dev.ferry.strategies.allocate;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import java.util.function.Supplier;

/** A provider of a strategy that takes no configuration: a name and a constructor. */
abstract class UnconfiguredStrategyProvider implements AllocateStrategyProvider {

    private final String name;
    private final Supplier<AllocateStrategy> constructor;

    UnconfiguredStrategyProvider(String name, Supplier<AllocateStrategy> constructor) {
        this.name = name;
        this.constructor = constructor;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        return constructor.get();
    }
}
