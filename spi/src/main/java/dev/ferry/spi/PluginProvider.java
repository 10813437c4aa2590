package dev.ferry.spi;

/**
 * Common shape of every plugin kind's provider: the object {@link java.util.ServiceLoader} finds, which
 * then creates the configured plugin instances.
 *
 * <p>A provider must have a public no-argument constructor, must be stateless and thread-safe, and is
 * registered in {@code META-INF/services/<provider interface>} of its jar.
 */
public interface PluginProvider {

    /**
     * The name users configure to select this plugin. Names are compared ignoring case and must be
     * unique within one plugin kind among everything the class loader sees.
     *
     * @return a non-blank name, for example {@code averagely} or {@code SQL92}
     */
    String name();
}
