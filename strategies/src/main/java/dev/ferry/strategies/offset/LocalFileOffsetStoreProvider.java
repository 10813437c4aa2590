package dev.ferry.strategies.offset;

import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.OffsetStoreProvider;
import dev.ferry.spi.PluginConfig;
import java.nio.file.Path;

/**
 * {@code local-file}: offsets in {@code <localDirectory>/<clientId>/<group>/offsets.json}, RocketMQ's
 * layout, for broadcasting consumers. No configuration.
 */
public final class LocalFileOffsetStoreProvider implements OffsetStoreProvider {

    @Override
    public String name() {
        return "local-file";
    }

    @Override
    public OffsetStore create(OffsetStoreContext context, PluginConfig config) {
        Path file = context.localDirectory().resolve(context.clientId()).resolve(context.group()).resolve("offsets.json");
        return new LocalFileOffsetStore(new OffsetFile(context.group(), file));
    }
}
