package dev.ferry.spi;

/** A plugin configuration value is missing or cannot be read as the plugin needs it. */
public final class PluginConfigException extends PluginException {

    private final String key;

    /**
     * @param key the configuration key at fault
     * @param message what is wrong, naming the key and the bad value
     */
    public PluginConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** @return the configuration key at fault */
    public String key() {
        return key;
    }
}
