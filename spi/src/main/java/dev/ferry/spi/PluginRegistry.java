package dev.ferry.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The providers of one plugin kind that one class loader sees, looked up by name ignoring case.
 *
 * <p>Loading is explicit about the class loader on purpose: inside an application server the thread's
 * context class loader belongs to whichever application happens to be running, not to the component
 * that asked. Built-in and third-party plugins are found the same way. Inside an OSGi framework the
 * registry also finds the providers that bundles register as services under the provider interface or
 * declare in their own {@code META-INF/services} (which a class loader does not see across bundles),
 * by the same names. An instance is immutable and safe to share between threads: it holds the
 * providers found when it was loaded.
 *
 * @param <P> the provider interface of the kind
 */
public final class PluginRegistry<P extends PluginProvider> {

    private final PluginKind<P> kind;
    /** Keyed by the lower-cased name, ordered by it, so listings are stable. */
    private final Map<String, P> providers;

    private PluginRegistry(PluginKind<P> kind, Map<String, P> providers) {
        this.kind = kind;
        this.providers = Collections.unmodifiableMap(providers);
    }

    /** Whether the OSGi API is there to ask; only then is {@link BundlePlugins} touched. */
    static final boolean OSGI_API = osgiApiPresent();

    /**
     * Loads every provider of {@code kind} that {@code classLoader} (and its parents) registers in
     * {@code META-INF/services}, and, when the spi runs as a started OSGi bundle, the framework's
     * providers of the kind (see the class comment). A provider class found both ways counts once.
     *
     * @param kind the kind to load
     * @param classLoader where to look; never the context class loader implicitly
     * @param <P> the provider interface
     * @return the registry
     * @throws DuplicatePluginException if two providers claim one name
     * @throws PluginException if a provider cannot be instantiated or has a blank name
     */
    public static <P extends PluginProvider> PluginRegistry<P> load(PluginKind<P> kind, ClassLoader classLoader) {
        Objects.requireNonNull(classLoader, "classLoader");
        return load(kind, List.of(classLoader));
    }

    /**
     * Loads every provider of {@code kind} that any of {@code classLoaders} registers, in their order, as
     * {@link #load(PluginKind, ClassLoader)} does for one. Loaders often overlap (an application's loader sees its
     * server's libraries too): a provider class that several of them see counts once, while two different classes
     * claiming one name are refused.
     *
     * @param kind the kind to load
     * @param classLoaders where to look, at least one
     * @param <P> the provider interface
     * @return the registry
     * @throws DuplicatePluginException if two provider classes claim one name
     * @throws PluginException if a provider cannot be linked or instantiated, or has a blank name
     */
    public static <P extends PluginProvider> PluginRegistry<P> load(PluginKind<P> kind,
                                                                     List<ClassLoader> classLoaders) {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(classLoaders, "classLoaders");
        if (classLoaders.isEmpty()) {
            throw new IllegalArgumentException("at least one class loader is needed to load " + kind.label()
                    + " plugins");
        }
        List<P> found = new ArrayList<>();
        for (ClassLoader classLoader : classLoaders) {
            Objects.requireNonNull(classLoader, "classLoader");
            try {
                ServiceLoader.load(kind.providerType(), classLoader).forEach(p -> addOnce(found, p));
            } catch (ServiceConfigurationError e) {
                throw new PluginException("Could not load " + kind.label() + " plugins: " + e.getMessage(), e);
            } catch (LinkageError e) {
                // A provider class whose own dependencies its loader cannot see (a jar given where the plugin
                // contracts are not visible, say): a refused plugin, not a broken caller.
                throw new PluginException("Could not load " + kind.label() + " plugins: a provider's class cannot "
                        + "be linked from " + classLoader + ": " + e, e);
            }
        }
        if (OSGI_API) {
            BundlePlugins.find(kind).forEach(p -> addOnce(found, p));
        }
        return of(kind, found);
    }

    private static <P> void addOnce(List<P> found, P provider) {
        if (found.stream().noneMatch(p -> p.getClass() == provider.getClass())) {
            found.add(provider);
        }
    }

    private static boolean osgiApiPresent() {
        try {
            Class.forName("org.osgi.framework.FrameworkUtil", false, PluginRegistry.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /**
     * A registry over providers given directly, for embedding and tests.
     *
     * @param kind the kind the providers belong to
     * @param providers the providers
     * @param <P> the provider interface
     * @return the registry
     * @throws DuplicatePluginException if two providers claim one name
     */
    public static <P extends PluginProvider> PluginRegistry<P> of(PluginKind<P> kind, List<? extends P> providers) {
        Map<String, P> byName = new TreeMap<>();
        for (P provider : providers) {
            String name = provider.name();
            if (name == null || name.isBlank()) {
                throw new PluginException("A " + kind.label() + " plugin has no name: "
                        + provider.getClass().getName());
            }
            P previous = byName.putIfAbsent(key(name), provider);
            if (previous != null) {
                throw new DuplicatePluginException(kind, name, previous.getClass(), provider.getClass());
            }
        }
        return new PluginRegistry<>(kind, new LinkedHashMap<>(byName));
    }

    /**
     * @param name the plugin's name, any case
     * @return the provider with that name
     * @throws UnknownPluginException if there is none; its message lists the available names
     */
    public P get(String name) {
        return find(name).orElseThrow(() -> new UnknownPluginException(kind, String.valueOf(name), names()));
    }

    /**
     * @param name the plugin's name, any case
     * @return the provider with that name, if any
     */
    public Optional<P> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(providers.get(key(name)));
    }

    /** @return the names of all providers as they declare them, ordered ignoring case */
    public List<String> names() {
        return providers.values().stream().map(PluginProvider::name).toList();
    }

    /** @return the kind this registry holds */
    public PluginKind<P> kind() {
        return kind;
    }

    private static String key(String name) {
        return name.trim().toLowerCase(Locale.ROOT);
    }
}
