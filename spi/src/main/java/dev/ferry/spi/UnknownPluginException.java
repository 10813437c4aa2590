package dev.ferry.spi;

import java.util.List;

/** No plugin of the asked kind has the asked name; the message lists the names that do exist. */
public final class UnknownPluginException extends PluginException {

    private final String name;
    private final List<String> available;

    /**
     * @param kind the kind that was searched
     * @param name the name asked for
     * @param available the names that were found, in the order to show them
     */
    public UnknownPluginException(PluginKind<?> kind, String name, List<String> available) {
        super("No " + kind.label() + " named '" + name + "'; available: "
                + (available.isEmpty() ? "(none)" : String.join(", ", available)));
        this.name = name;
        this.available = List.copyOf(available);
    }

    /** @return the name asked for */
    public String name() {
        return name;
    }

    /** @return the names that were found */
    public List<String> available() {
        return available;
    }
}
