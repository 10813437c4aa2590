package dev.ferry.strategies.allocate;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;

/**
 * {@code consistent-hash}: RocketMQ's {@code CONSISTENT_HASH}. Config: {@code virtual-nodes}, points per
 * client on the ring, a positive integer, default 10 (Apache's default; all members must agree).
 */
public final class ConsistentHashStrategyProvider implements AllocateStrategyProvider {

    /** Key of the number of ring points per client. */
    public static final String VIRTUAL_NODES = "virtual-nodes";

    @Override
    public String name() {
        return ConsistentHashStrategy.NAME;
    }

    @Override
    public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        return new ConsistentHashStrategy(config.positiveInt(VIRTUAL_NODES, 10));
    }
}
