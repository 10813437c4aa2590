package dev.ferry.spi;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Tells whoever uses a plugin when the plugin's code goes away: inside an OSGi framework, when the bundle that
 * defines the plugin's class stops, is updated, refreshed or uninstalled. Outside a framework a plugin's class
 * loader lives as long as its user holds the plugin, so nothing is ever reported there.
 *
 * <p>Close the watch when done with the plugin: until then the framework holds the callback.
 */
public final class PluginWatch implements AutoCloseable {
    private static final PluginWatch NONE = new PluginWatch(() -> { });

    private final Runnable stop;

    private PluginWatch(Runnable stop) {
        this.stop = stop;
    }

    /**
     * Watches {@code plugin} (an object a provider created, or the provider).
     *
     * @param plugin what to watch
     * @param onWithdrawn called at most once, on a framework thread, with where the plugin came from, such as
     *                    {@code bundle dev.ferry.samples.custom 0.1.0}
     * @return the watch; closing it stops watching
     */
    public static PluginWatch of(Object plugin, Consumer<String> onWithdrawn) {
        Objects.requireNonNull(plugin, "plugin");
        Objects.requireNonNull(onWithdrawn, "onWithdrawn");
        if (!PluginRegistry.OSGI_API) {
            return NONE;
        }
        Runnable stop = BundlePlugins.watch(plugin, onWithdrawn);
        return stop == null ? NONE : new PluginWatch(stop);
    }

    @Override
    public void close() {
        stop.run();
    }
}
