package dev.ferry.spi;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkUtil;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.ServiceReference;

/**
 * The providers of a plugin kind that an OSGi framework holds, for when the spi runs as a bundle: services
 * registered under the provider interface (the whiteboard), and the providers that resolved bundles declare in
 * {@code META-INF/services}, which {@link java.util.ServiceLoader} over one class loader cannot see in a framework.
 * Both count only when they implement this bundle's copy of the contract.
 *
 * <p>Only {@link PluginRegistry} calls this, and only when the OSGi API is present, so outside a framework the spi
 * needs none of it.
 */
final class BundlePlugins {
    private static final int RESOLVED = Bundle.RESOLVED | Bundle.STARTING | Bundle.ACTIVE;
    /** The bundle events after which a plugin's code may be gone. */
    private static final int WITHDRAWN = BundleEvent.STOPPED | BundleEvent.UPDATED | BundleEvent.UNRESOLVED
            | BundleEvent.UNINSTALLED;

    private BundlePlugins() {
    }

    /** The kind's providers in the framework the spi bundle runs in; none outside one or before it starts. */
    static <P extends PluginProvider> List<P> find(PluginKind<P> kind) {
        Bundle own = FrameworkUtil.getBundle(BundlePlugins.class);
        BundleContext context = own == null ? null : own.getBundleContext();
        if (context == null) {
            return List.of();
        }
        List<P> found = new ArrayList<>(registered(context, kind));
        for (Bundle bundle : context.getBundles()) {
            found.addAll(declaredBy(bundle, kind));
        }
        return found;
    }

    /**
     * The providers a resolved bundle declares. A bundle that goes away while it is read (uninstalled or stopped as
     * a plugin's watcher looks for a fallback) has none: its plugins went with it, and the others still count.
     */
    static <P extends PluginProvider> List<P> declaredBy(Bundle bundle, PluginKind<P> kind) {
        if (!resolved(bundle) || bundle.getHeaders().get(Constants.FRAGMENT_HOST) != null) {
            return List.of();
        }
        try {
            return declared(bundle, kind);
        } catch (RuntimeException e) {
            if (!resolved(bundle)) {
                return List.of();
            }
            throw e;
        }
    }

    private static boolean resolved(Bundle bundle) {
        return (bundle.getState() & RESOLVED) != 0;
    }

    private static <P extends PluginProvider> List<P> registered(BundleContext context, PluginKind<P> kind) {
        Collection<ServiceReference<P>> references;
        try {
            references = context.getServiceReferences(kind.providerType(), null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException("no filter was given", e);
        }
        List<P> services = new ArrayList<>();
        for (ServiceReference<P> reference : references) {
            P service = context.getService(reference);
            if (service != null) {
                services.add(service);
            }
        }
        return services;
    }

    private static <P extends PluginProvider> List<P> declared(Bundle bundle, PluginKind<P> kind) {
        URL entry = bundle.getEntry("META-INF/services/" + kind.providerType().getName());
        if (entry == null) {
            return List.of();
        }
        List<P> providers = new ArrayList<>();
        for (String className : classNames(bundle, entry, kind)) {
            Class<?> type;
            try {
                type = bundle.loadClass(className);
            } catch (ClassNotFoundException e) {
                throw failure(bundle, kind, className + " is declared but cannot be loaded", e);
            }
            if (!kind.providerType().isAssignableFrom(type)) {
                continue; // wired to another copy of the contract: that copy's registries see it
            }
            try {
                providers.add(kind.providerType().cast(type.getConstructor().newInstance()));
            } catch (InvocationTargetException e) {
                throw failure(bundle, kind, className + " failed to start", e.getCause());
            } catch (ReflectiveOperationException e) {
                throw failure(bundle, kind, className + " has no public no-argument constructor", e);
            }
        }
        return providers;
    }

    /**
     * Calls {@code onWithdrawn} once when the bundle that defines {@code plugin}'s class stops, is updated,
     * unresolved or uninstalled; returns what stops watching, or {@code null} when the plugin comes from no bundle
     * or the spi bundle has not started.
     */
    static Runnable watch(Object plugin, Consumer<String> onWithdrawn) {
        Bundle origin = FrameworkUtil.getBundle(plugin.getClass());
        Bundle own = FrameworkUtil.getBundle(BundlePlugins.class);
        BundleContext context = own == null ? null : own.getBundleContext();
        if (origin == null || context == null) {
            return null;
        }
        long originId = origin.getBundleId();
        String from = "bundle " + origin.getSymbolicName() + " " + origin.getVersion();
        AtomicBoolean over = new AtomicBoolean();
        BundleListener listener = new BundleListener() {
            @Override
            public void bundleChanged(BundleEvent event) {
                if (event.getBundle().getBundleId() == originId && (event.getType() & WITHDRAWN) != 0
                        && over.compareAndSet(false, true)) {
                    stopListening(context, this);
                    onWithdrawn.accept(from);
                }
            }
        };
        context.addBundleListener(listener);
        return () -> {
            if (over.compareAndSet(false, true)) {
                stopListening(context, listener);
            }
        };
    }

    private static void stopListening(BundleContext context, BundleListener listener) {
        try {
            context.removeBundleListener(listener);
        } catch (IllegalStateException e) {
            // the spi bundle stopped: its listeners went with it
        }
    }

    /** The provider class names of a {@code META-INF/services} file: one per line, {@code #} starts a comment. */
    private static List<String> classNames(Bundle bundle, URL entry, PluginKind<?> kind) {
        List<String> names = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(entry.openStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                int comment = line.indexOf('#');
                String name = (comment >= 0 ? line.substring(0, comment) : line).trim();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw failure(bundle, kind, "its service declaration cannot be read", e);
        }
        return names;
    }

    private static PluginException failure(Bundle bundle, PluginKind<?> kind, String what, Throwable cause) {
        return new PluginException("Could not load " + kind.label() + " plugins of bundle "
                + bundle.getSymbolicName() + " " + bundle.getVersion() + ": " + what, cause);
    }
}
