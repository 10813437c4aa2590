package dev.ferry.samples.custom;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;

/** Registers {@code queue-id-modulo} in {@code META-INF/services/dev.ferry.spi.AllocateStrategyProvider}. */
public final class QueueIdModuloStrategyProvider implements AllocateStrategyProvider {

    @Override
    public String name() {
        return QueueIdModuloStrategy.NAME;
    }

    @Override
    public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        return new QueueIdModuloStrategy();
    }
}
