package dev.ferry.spi;

/**
 * Two providers of one kind claim the same name (ignoring case). Picking one silently would make the
 * behaviour depend on class path order, so discovery refuses.
 */
public final class DuplicatePluginException extends PluginException {

    /**
     * @param kind the kind being loaded
     * @param name the name both claim
     * @param first the class of the provider found first
     * @param second the class of the provider found second
     */
    public DuplicatePluginException(PluginKind<?> kind, String name, Class<?> first, Class<?> second) {
        super("Two " + kind.label() + " plugins are named '" + name + "': " + first.getName() + " and "
                + second.getName());
    }
}
