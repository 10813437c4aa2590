package dev.ferry.osgi;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.BundleListener;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * One OSGi framework, Apache Felix or Eclipse Equinox, launched through the standard {@code org.osgi.framework.launch}
 * API with its storage in a directory of its own, and the bundles a test installs into it.
 */
final class OsgiFramework implements AutoCloseable {

    /**
     * The frameworks the bundles are tested in. Each runs in a test JVM of its own (the build runs the suite once per
     * framework): both carry the Felix resolver's package, Equinox's copy signed, so they cannot share a class path.
     */
    enum Kind {
        FELIX("org.apache.felix.framework.FrameworkFactory"),
        EQUINOX("org.eclipse.osgi.launch.EquinoxFactory");

        private final String factoryClass;

        Kind(String factoryClass) {
            this.factoryClass = factoryClass;
        }

        /** The framework this test JVM was given ({@code ferry.osgi.framework}: felix or equinox). */
        static Kind current() {
            String name = System.getProperty("ferry.osgi.framework");
            if (name == null) {
                throw new IllegalStateException("ferry.osgi.framework is not set: run the tests through Maven");
            }
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    private final Framework framework;
    private final List<Bundle> installed = new ArrayList<>();

    private OsgiFramework(Framework framework) {
        this.framework = framework;
    }

    /** Launches the framework of this test JVM. */
    static OsgiFramework launch(Path storage) throws Exception {
        return launch(Kind.current(), storage);
    }

    static OsgiFramework launch(Kind kind, Path storage) throws Exception {
        FrameworkFactory factory = (FrameworkFactory) Class.forName(kind.factoryClass).getConstructor().newInstance();
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(Constants.FRAMEWORK_STORAGE, storage.toString());
        properties.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        Framework framework = factory.newFramework(properties);
        framework.start();
        return new OsgiFramework(framework);
    }

    /** The directory of bundles the build copied for the tests: Ferry's and their dependencies, as served. */
    static Path bundleDirectory() {
        String dir = System.getProperty("ferry.osgi.bundles");
        if (dir == null) {
            throw new IllegalStateException("ferry.osgi.bundles is not set: run the tests through Maven");
        }
        return Path.of(dir);
    }

    /** The jars of {@code dir}, in name order. */
    static List<Path> bundleJars(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** Installs every jar of {@code dir}, in name order. */
    List<Bundle> installAll(Path dir) throws IOException, BundleException {
        List<Bundle> bundles = new ArrayList<>();
        for (Path jar : bundleJars(dir)) {
            bundles.add(install(jar));
        }
        return bundles;
    }

    Bundle install(Path jar) throws BundleException {
        Bundle bundle = framework.getBundleContext().installBundle(jar.toUri().toString());
        installed.add(bundle);
        return bundle;
    }

    Bundle installAndStart(Path jar) throws BundleException {
        Bundle bundle = install(jar);
        bundle.start();
        return bundle;
    }

    /** Starts every installed bundle that is not a fragment; returns each failure, by bundle. */
    Map<Bundle, BundleException> startAll() {
        Map<Bundle, BundleException> failures = new LinkedHashMap<>();
        for (Bundle bundle : installed) {
            if (isFragment(bundle)) {
                continue;
            }
            try {
                bundle.start();
            } catch (BundleException e) {
                failures.put(bundle, e);
            }
        }
        return failures;
    }

    /**
     * Returns once the framework has delivered every bundle event raised so far: it raises one more (installing a
     * marker bundle built in {@code scratch}) and waits for it, since the framework delivers them in order.
     */
    void awaitBundleEventsDelivered(Path scratch) throws Exception {
        Path marker = manifestOnlyJar(scratch.resolve("marker-" + System.nanoTime() + ".jar"),
                "dev.ferry.test.marker", null);
        CountDownLatch seen = new CountDownLatch(1);
        BundleListener listener = event -> {
            if ("dev.ferry.test.marker".equals(event.getBundle().getSymbolicName())) {
                seen.countDown();
            }
        };
        framework.getBundleContext().addBundleListener(listener);
        try {
            Bundle bundle = framework.getBundleContext().installBundle(marker.toUri().toString());
            if (!seen.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the marker's event was not delivered within 30 s");
            }
            bundle.uninstall();
        } finally {
            framework.getBundleContext().removeBundleListener(listener);
        }
    }

    /** A jar holding only a bundle manifest: {@code symbolicName} 1.0.0, importing {@code imports} if not null. */
    static Path manifestOnlyJar(Path jar, String symbolicName, String imports) throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue("Bundle-ManifestVersion", "2");
        main.putValue("Bundle-SymbolicName", symbolicName);
        main.putValue("Bundle-Version", "1.0.0");
        if (imports != null) {
            main.putValue("Import-Package", imports);
        }
        try (OutputStream out = Files.newOutputStream(jar)) {
            new JarOutputStream(out, manifest).close(); // a manifest and nothing else
        }
        return jar;
    }

    /** Uninstalls {@code bundle} and refreshes it, so that its revision and class loader can go. */
    void uninstall(Bundle bundle) throws BundleException, InterruptedException {
        bundle.uninstall();
        installed.remove(bundle);
        refresh(bundle);
    }

    /** Refreshes {@code bundles} (an uninstalled bundle's old revision goes then) and waits until that is done. */
    void refresh(Bundle... bundles) throws InterruptedException {
        CountDownLatch refreshed = new CountDownLatch(1);
        framework.adapt(FrameworkWiring.class).refreshBundles(List.of(bundles), event -> refreshed.countDown());
        if (!refreshed.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the refresh did not finish within 30 s");
        }
    }

    static boolean isFragment(Bundle bundle) {
        return bundle.getHeaders().get(Constants.FRAGMENT_HOST) != null;
    }

    List<Bundle> installed() {
        return List.copyOf(installed);
    }

    /** The names of the packages the framework exports from the JDK (through its system bundle). */
    Set<String> systemPackages() {
        return framework.adapt(BundleRevision.class).getDeclaredCapabilities(PackageNamespace.PACKAGE_NAMESPACE)
                .stream().map(c -> (String) c.getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE))
                .collect(Collectors.toSet());
    }

    /** The system bundle's context: what a launcher sees of the framework. */
    BundleContext context() {
        return framework.getBundleContext();
    }

    Bundle bundle(String symbolicName) {
        return installed.stream().filter(b -> symbolicName.equals(b.getSymbolicName())).findFirst()
                .orElseThrow(() -> new AssertionError("no bundle " + symbolicName + " installed"));
    }

    @Override
    public void close() throws BundleException {
        framework.stop();
        FrameworkEvent stopped;
        try {
            stopped = framework.waitForStop(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the framework stopped", e);
        }
        if (stopped.getType() == FrameworkEvent.WAIT_TIMEDOUT) {
            throw new IllegalStateException("the framework did not stop within 30 s");
        }
    }
}
