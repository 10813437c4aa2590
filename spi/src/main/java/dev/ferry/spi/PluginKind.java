package dev.ferry.spi;

import java.util.Objects;

/**
 * A kind of plugin: the provider interface {@link java.util.ServiceLoader} looks for, and the words
 * messages use for it.
 *
 * @param providerType the provider interface, for example {@link AllocateStrategyProvider}
 * @param label what one plugin of this kind is called in messages, for example "allocate strategy"
 * @param <P> the provider interface
 */
public record PluginKind<P extends PluginProvider>(Class<P> providerType, String label) {

    /** Checks both parts are present. */
    public PluginKind {
        Objects.requireNonNull(providerType, "providerType");
        Objects.requireNonNull(label, "label");
    }
}
