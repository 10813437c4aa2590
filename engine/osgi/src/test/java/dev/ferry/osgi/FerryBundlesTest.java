package dev.ferry.osgi;

import static dev.ferry.osgi.Reflect.call;
import static dev.ferry.osgi.Reflect.callStatic;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleException;
import org.osgi.framework.Version;
import org.osgi.framework.namespace.BundleNamespace;
import org.osgi.framework.namespace.PackageNamespace;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRequirement;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.BundleWire;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Ferry's library bundles in Apache Felix and Eclipse Equinox, beside Netty, Jackson, Caffeine and picocli as the
 * bundles Maven Central serves: they install, resolve and start, their imports wire to the bundles that export
 * those packages, their manifests follow the rules (package imports with version ranges, versioned exports, no
 * Require-Bundle), and a broker and a client loaded from them exchange a message.
 */
@Tag("integration")
class FerryBundlesTest {
    private static final Set<String> FERRY_BUNDLES = Set.of("dev.ferry.api", "dev.ferry.spi", "dev.ferry.format",
            "dev.ferry.remoting", "dev.ferry.store", "dev.ferry.server", "dev.ferry.client", "dev.ferry.strategies",
            "dev.ferry.samples.custom");

    @TempDir
    Path storage;

    @Test
    void everyBundleInstallsResolvesAndStarts() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());

            Map<Bundle, BundleException> failures = osgi.startAll();

            assertThat(failures).as(describe(failures)).isEmpty();
            assertThat(osgi.installed()).extracting(Bundle::getSymbolicName).containsAll(FERRY_BUNDLES);
            for (Bundle bundle : osgi.installed()) {
                int expected = OsgiFramework.isFragment(bundle) ? Bundle.RESOLVED : Bundle.ACTIVE;
                assertThat(bundle.getState()).as(bundle.getSymbolicName()).isEqualTo(expected);
            }
        }
    }

    @Test
    void ferrysImportsWireToTheBundlesThatExportThem() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();

            Set<String> system = osgi.systemPackages();
            for (String name : FERRY_BUNDLES) {
                for (BundleWire wire : osgi.bundle(name).adapt(BundleWiring.class)
                        .getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE)) {
                    String pkg = (String) wire.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE);
                    long provider = wire.getProvider().getBundle().getBundleId();
                    // the JDK's and the framework's packages come from the system bundle (id 0), the rest from bundles
                    assertThat(provider == 0).as(name + " imports " + pkg + " from bundle " + provider)
                        .isEqualTo(system.contains(pkg));
                }
            }
            assertThat(provider(osgi, "dev.ferry.remoting", "io.netty.buffer")).isEqualTo("io.netty.buffer");
            assertThat(provider(osgi, "dev.ferry.remoting", "com.fasterxml.jackson.databind"))
                .isEqualTo("com.fasterxml.jackson.core.jackson-databind");
            assertThat(provider(osgi, "dev.ferry.client", "dev.ferry.remoting")).isEqualTo("dev.ferry.remoting");
            assertThat(provider(osgi, "dev.ferry.strategies", "dev.ferry.spi")).isEqualTo("dev.ferry.spi");
        }
    }

    @Test
    void ferrysManifestsImportPackagesWithVersionRangesAndExportVersions() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());

            Set<String> jdk = osgi.systemPackages();
            for (String name : FERRY_BUNDLES) {
                BundleRevision revision = osgi.bundle(name).adapt(BundleRevision.class);
                assertThat(revision.getDeclaredRequirements(BundleNamespace.BUNDLE_NAMESPACE))
                    .as(name + " uses Require-Bundle").isEmpty();
                for (BundleRequirement requirement : revision.getDeclaredRequirements(
                        PackageNamespace.PACKAGE_NAMESPACE)) {
                    String filter = requirement.getDirectives().get(PackageNamespace.REQUIREMENT_FILTER_DIRECTIVE);
                    String pkg = filter.replaceFirst(".*\\(osgi\\.wiring\\.package=([^)]*)\\).*", "$1");
                    if (jdk.contains(pkg)) {
                        continue; // the JDK's packages carry no versions
                    }
                    assertThat(filter).as(name + " imports " + pkg + " without a version range")
                        .contains("(version>=").contains("(!(version>=");
                }
                for (BundleCapability export : revision.getDeclaredCapabilities(PackageNamespace.PACKAGE_NAMESPACE)) {
                    Object version = export.getAttributes().get(PackageNamespace.CAPABILITY_VERSION_ATTRIBUTE);
                    assertThat(version).as(name + " exports " + export.getAttributes()
                        .get(PackageNamespace.PACKAGE_NAMESPACE) + " without a version")
                        .isInstanceOf(Version.class).isNotEqualTo(Version.emptyVersion);
                }
            }
        }
    }

    @Test
    void aBundleThatCannotResolveIsReportedWithWhatItLacks() throws Exception {
        Path broken = brokenBundle(storage.resolve("broken.jar"));
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            Bundle bundle = osgi.install(broken);

            Map<Bundle, BundleException> failures = osgi.startAll();

            assertThat(failures).containsOnlyKeys(bundle);
            assertThat(failures.get(bundle)).hasMessageContaining("dev.ferry.nosuchpackage");
            assertThat(bundle.getState()).isEqualTo(Bundle.INSTALLED);
        }
    }

    @Test
    void aBrokerAndAClientLoadedFromTheBundlesExchangeAMessage() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();
            Bundle server = osgi.bundle("dev.ferry.server");
            Bundle client = osgi.bundle("dev.ferry.client");

            Object settings = callStatic(server.loadClass("dev.ferry.server.embedded.EmbeddedEngine"), "settings",
                    storage.resolve("store"));
            call(settings, "namesrvPort", 0);
            call(settings, "brokerPort", 0);
            List<AutoCloseable> open = new ArrayList<>();
            try {
                Object engine = call(settings, "start");
                open.add((AutoCloseable) engine);
                Class<?> configType = client.loadClass("dev.ferry.client.ClientConfig");
                Object config = call(callStatic(configType, "builder",
                        (Object) new String[] {(String) call(engine, "nameServerAddress")}), "build");
                Object ferryClient = client.loadClass("dev.ferry.client.FerryClient").getConstructor(configType)
                        .newInstance(config);
                open.add(0, (AutoCloseable) ferryClient);
                Object producer = call(ferryClient, "producer", call(callStatic(
                        client.loadClass("dev.ferry.client.ProducerConfig"), "builder", "OsgiProducer"), "build"));
                Object message = call(call(callStatic(osgi.bundle("dev.ferry.api").loadClass("dev.ferry.api.Message"),
                        "builder", "OsgiTopic"), "body", "sent inside OSGi".getBytes(StandardCharsets.UTF_8)), "build");
                call(producer, "send", message);

                Object consumerConfig = callStatic(client.loadClass("dev.ferry.client.PullConsumerConfig"), "builder",
                        "OsgiConsumer");
                Class<?> consumeFrom = client.loadClass("dev.ferry.client.ConsumeFromWhere");
                call(consumerConfig, "consumeFromWhere", enumValue(consumeFrom, "FIRST_OFFSET"));
                Object consumer = call(ferryClient, "pullConsumer", call(consumerConfig, "build"));
                call(consumer, "subscribe", "OsgiTopic", "*");
                List<String> bodies = new ArrayList<>();
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (bodies.isEmpty() && System.nanoTime() < deadline) {
                    for (Object received : (List<?>) call(consumer, "poll", Duration.ofMillis(500))) {
                        bodies.add(new String((byte[]) call(received, "body"), StandardCharsets.UTF_8));
                    }
                }

                assertThat(bodies).containsExactly("sent inside OSGi");
            } finally {
                for (AutoCloseable closeable : open) {
                    closeable.close();
                }
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumValue(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    /** The symbolic name of the bundle that {@code importer}'s import of {@code pkg} is wired to. */
    private static String provider(OsgiFramework osgi, String importer, String pkg) {
        return osgi.bundle(importer).adapt(BundleWiring.class).getRequiredWires(PackageNamespace.PACKAGE_NAMESPACE)
                .stream()
                .filter(w -> pkg.equals(w.getCapability().getAttributes().get(PackageNamespace.PACKAGE_NAMESPACE)))
                .map(w -> w.getProvider().getBundle().getSymbolicName())
                .findFirst().orElseThrow(() -> new AssertionError(importer + " does not import " + pkg));
    }

    /** A bundle whose only import no bundle exports. */
    private static Path brokenBundle(Path jar) throws IOException {
        return OsgiFramework.manifestOnlyJar(jar, "dev.ferry.test.broken",
                "dev.ferry.nosuchpackage;version=\"[0.1,1)\"");
    }

    private static String describe(Map<Bundle, BundleException> failures) {
        return failures.entrySet().stream().map(e -> e.getKey().getSymbolicName() + ": " + e.getValue().getMessage())
                .collect(Collectors.joining("\n", "bundles that did not start:\n", ""));
    }
}
