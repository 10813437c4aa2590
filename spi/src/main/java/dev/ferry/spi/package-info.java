/**
 * Plugin contracts and their discovery: what the engine knows of allocation strategies, offset stores
 * and message filters.
 *
 * <p><b>Discovery.</b> Each kind has a provider interface ({@link dev.ferry.spi.AllocateStrategyProvider},
 * {@link dev.ferry.spi.OffsetStoreProvider}, {@link dev.ferry.spi.MessageFilterProvider}) that
 * {@link java.util.ServiceLoader} finds in {@code META-INF/services}. A
 * {@link dev.ferry.spi.PluginRegistry} loads one kind from an explicitly given class loader and looks
 * providers up by name, ignoring case; two providers with one name are an error, an unknown name fails
 * with the list of known ones. Built-in plugins ({@code ferry-strategies}) are found exactly like a
 * user's plugin jar.
 *
 * <p><b>Configuration.</b> Providers are stateless factories; the plugin instances they create hold
 * configuration and state. A provider receives a {@link dev.ferry.spi.PluginConfig}, an immutable
 * string-keyed map (as properties files, CLI flags and JCA config properties deliver it) whose typed
 * getters fail with a message naming the key and the bad value, so misconfiguration shows when the
 * consumer starts. A plugin that wraps another (machine-room-nearby wraps an allocation strategy) reads
 * the inner name from a key and passes the inner plugin the {@linkplain dev.ferry.spi.PluginConfig#section
 * section} of keys under that key's prefix, creating it through the
 * {@link dev.ferry.spi.AllocateStrategyResolver} it was given. Stateful plugins (the sticky strategy's
 * previous assignment) keep state per instance; the engine creates one instance per consumer.
 *
 * <p><b>Reaching the engine.</b> Plugins never import engine classes. What they need from it comes
 * through small interfaces the engine implements, such as {@link dev.ferry.spi.BrokerOffsetAccess} in
 * the {@link dev.ferry.spi.OffsetStoreContext}.
 */
package dev.ferry.spi;
