package dev.ferry.spi;

/**
 * Creates {@link AllocateStrategy} instances of one named algorithm, configured per consumer.
 *
 * <p>Found through {@link java.util.ServiceLoader}; see {@link PluginRegistry}.
 */
public interface AllocateStrategyProvider extends PluginProvider {

    /** The kind, for {@link PluginRegistry#load(PluginKind, ClassLoader)}. */
    PluginKind<AllocateStrategyProvider> KIND = new PluginKind<>(AllocateStrategyProvider.class, "allocate strategy");

    /**
     * Creates a strategy for one consumer. Called once per consumer; a strategy that keeps state (for
     * example the previous assignment) keeps it in the returned instance.
     *
     * @param config the strategy's settings; each provider documents its keys
     * @param strategies creates other strategies by name, for strategies that wrap another
     * @return a new strategy
     * @throws PluginConfigException if the configuration is invalid
     */
    AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies);
}
