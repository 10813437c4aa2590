package dev.ferry.spi;

/** Creates {@link OffsetStore}s of one named kind, one per consumer. Found through {@link java.util.ServiceLoader}. */
public interface OffsetStoreProvider extends PluginProvider {

    /** The kind, for {@link PluginRegistry#load(PluginKind, ClassLoader)}. */
    PluginKind<OffsetStoreProvider> KIND = new PluginKind<>(OffsetStoreProvider.class, "offset store");

    /**
     * @param context the consumer the store serves and the ways it may reach brokers and disk
     * @param config the store's settings; each provider documents its keys
     * @return a new store; the consumer calls {@link OffsetStore#load()} before using it
     * @throws PluginConfigException if the configuration is invalid
     */
    OffsetStore create(OffsetStoreContext context, PluginConfig config);
}
