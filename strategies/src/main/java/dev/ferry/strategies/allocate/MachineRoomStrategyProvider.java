package dev.ferry.strategies.allocate;

import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.PluginConfig;
import java.util.Set;

/**
 * {@code machine-room}: RocketMQ's {@code MACHINE_ROOM}. Config: {@code consumer-idcs}, required, the
 * comma-separated idcs (the part of a broker name before {@code @}) this consumer reads from.
 */
public final class MachineRoomStrategyProvider implements AllocateStrategyProvider {

    /** Key of the consumer's idcs. */
    public static final String CONSUMER_IDCS = "consumer-idcs";

    @Override
    public String name() {
        return MachineRoomStrategy.NAME;
    }

    @Override
    public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
        config.requiredString(CONSUMER_IDCS);
        return new MachineRoomStrategy(Set.copyOf(config.list(CONSUMER_IDCS)));
    }
}
