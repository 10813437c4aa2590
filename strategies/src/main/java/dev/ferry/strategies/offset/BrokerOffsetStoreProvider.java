package dev.ferry.strategies.offset;

import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;

/** {@code broker}: offsets kept on the brokers, for clustering consumers. No configuration. */
public final class BrokerOffsetStoreProvider implements OffsetStoreProvider {

    @Override
    public String name() {
        return "broker";
    }

    @Override
    public OffsetStore create(OffsetStoreContext context, PluginConfig config) {
        return new BrokerOffsetStore(context.group(), context.brokerOffsets());
    }
}
