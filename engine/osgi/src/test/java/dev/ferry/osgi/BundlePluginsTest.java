package dev.ferry.osgi;

import static dev.ferry.osgi.Reflect.call;
import static dev.ferry.osgi.Reflect.callStatic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Hashtable;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceRegistration;

/**
 * The spi's plugin registry inside a framework: it finds the providers that other bundles declare in their own
 * {@code META-INF/services} and those that bundles register as services, by the same names as through
 * ServiceLoader outside a framework.
 */
class BundlePluginsTest {
    @TempDir
    Path storage;

    @Test
    void providersThatBundlesDeclareAreFoundByName() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();

            assertThat(names(osgi, "AllocateStrategyProvider"))
                .contains("consistent-hash", "machine-room", "sticky", "queue-id-modulo");
            assertThat(names(osgi, "OffsetStoreProvider")).contains("broker", "local-file");
        }
    }

    @Test
    void aProviderRegisteredAsAServiceIsFoundByNameAndGoneOnceUnregistered() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();
            Class<?> providerType = osgi.bundle("dev.ferry.spi").loadClass("dev.ferry.spi.AllocateStrategyProvider");
            Object provider = Proxy.newProxyInstance(providerType.getClassLoader(), new Class<?>[] {providerType},
                (proxy, method, args) -> switch (method.getName()) {
                    case "name" -> "whiteboard-strategy";
                    case "toString" -> "a strategy registered as a service";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
            // registered by a bundle wired to the same contract, as a plugin bundle would
            Bundle registrant = osgi.bundle("dev.ferry.samples.custom");
            ServiceRegistration<?> registration = registrant.getBundleContext()
                .registerService(providerType.getName(), provider, new Hashtable<>());

            assertThat(names(osgi, "AllocateStrategyProvider")).contains("whiteboard-strategy", "sticky");

            registration.unregister();
            assertThat(names(osgi, "AllocateStrategyProvider")).doesNotContain("whiteboard-strategy")
                .contains("sticky");
        }
    }

    @Test
    void anUnknownNameIsRefusedListingTheNamesFoundInTheFramework() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();

            Object registry = registry(osgi, "AllocateStrategyProvider");
            assertThatThrownBy(() -> call(registry, "get", "no-such-strategy"))
                .cause().hasMessageContaining("no-such-strategy").hasMessageContaining("queue-id-modulo");
        }
    }

    @Test
    void aPluginBundleInstalledWhileAClientRunsServesTheConsumersCreatedAfterIt() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            Path sample;
            try (var jars = Files.list(OsgiFramework.bundleDirectory())) {
                sample = jars.filter(p -> p.getFileName().toString().startsWith("ferry-sample-custom-strategy"))
                    .findFirst().orElseThrow();
            }
            for (Path jar : OsgiFramework.bundleJars(OsgiFramework.bundleDirectory())) {
                if (!jar.equals(sample)) {
                    osgi.install(jar);
                }
            }
            assertThat(osgi.startAll()).isEmpty();
            Bundle server = osgi.bundle("dev.ferry.server");
            Bundle client = osgi.bundle("dev.ferry.client");
            Object settings = callStatic(server.loadClass("dev.ferry.server.embedded.EmbeddedEngine"), "settings",
                    storage.resolve("store"));
            call(settings, "namesrvPort", 0);
            call(settings, "brokerPort", 0);
            try (AutoCloseable engine = (AutoCloseable) call(settings, "start")) {
                Class<?> configType = client.loadClass("dev.ferry.client.ClientConfig");
                Object config = call(callStatic(configType, "builder",
                        (Object) new String[] {(String) call(engine, "nameServerAddress")}), "build");
                try (AutoCloseable ferryClient = (AutoCloseable) client.loadClass("dev.ferry.client.FerryClient")
                        .getConstructor(configType).newInstance(config)) {
                    Object noConfig = callStatic(osgi.bundle("dev.ferry.spi").loadClass("dev.ferry.spi.PluginConfig"),
                            "empty");
                    assertThatThrownBy(() -> pullConsumer(client, ferryClient, "Before", noConfig))
                        .cause().hasMessageContaining("queue-id-modulo");

                    osgi.install(sample).start();

                    try (AutoCloseable consumer = pullConsumer(client, ferryClient, "After", noConfig)) {
                        assertThat(consumer).isNotNull();
                    }
                }
            }
        }
    }

    /** A pull consumer of {@code ferryClient} whose allocation strategy is the sample's {@code queue-id-modulo}. */
    private static AutoCloseable pullConsumer(Bundle client, Object ferryClient, String group, Object noConfig)
            throws Exception {
        Object builder = callStatic(client.loadClass("dev.ferry.client.PullConsumerConfig"), "builder", group);
        call(builder, "allocateStrategy", "queue-id-modulo", noConfig);
        return (AutoCloseable) call(ferryClient, "pullConsumer", call(builder, "build"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> names(OsgiFramework osgi, String providerInterface) throws Exception {
        return (List<String>) call(registry(osgi, providerInterface), "names");
    }

    /** {@code PluginRegistry.load(kind, the spi bundle's loader)}, as a component inside the framework calls it. */
    private static Object registry(OsgiFramework osgi, String providerInterface) throws Exception {
        Bundle spi = osgi.bundle("dev.ferry.spi");
        Class<?> registry = spi.loadClass("dev.ferry.spi.PluginRegistry");
        Object kind = spi.loadClass("dev.ferry.spi." + providerInterface).getField("KIND").get(null);
        return callStatic(registry, "load", kind, registry.getClassLoader());
    }
}
