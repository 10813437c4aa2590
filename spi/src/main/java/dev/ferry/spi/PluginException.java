package dev.ferry.spi;

/** Something is wrong with the plugins found or asked for: the root of the SPI's exceptions. */
public class PluginException extends RuntimeException {

    /**
     * @param message what is wrong, naming the plugin
     */
    public PluginException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong, naming the plugin
     * @param cause the underlying failure
     */
    public PluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
