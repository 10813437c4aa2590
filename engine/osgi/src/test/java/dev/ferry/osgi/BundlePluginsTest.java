package dev.ferry.osgi;

import static dev.ferry.osgi.Reflect.call;
import static dev.ferry.osgi.Reflect.callStatic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.ref.WeakReference;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Hashtable;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceRegistration;
import org.osgi.framework.wiring.BundleWiring;

/**
 * The spi's plugin registry inside a framework: it finds the providers that other bundles declare in their own
 * {@code META-INF/services} and those that bundles register as services, by the same names as through
 * ServiceLoader outside a framework.
 */
@Tag("integration")
class BundlePluginsTest {
    /** The client's warnings and worse, as logged during a test (its System.Logger writes to java.util.logging). */
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler handler = warningsInto(warnings);
    /** Held for the test: java.util.logging keeps loggers weakly, and a collected one would lose the handler. */
    private final Logger clientLog = Logger.getLogger("dev.ferry.client");

    @TempDir
    Path storage;

    @BeforeEach
    void captureClientWarnings() {
        clientLog.addHandler(handler);
    }

    @AfterEach
    void stopCapturing() {
        clientLog.removeHandler(handler);
    }

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
            Path sample = installAllButTheSample(osgi);
            Bundle client = osgi.bundle("dev.ferry.client");
            try (AutoCloseable engine = startEngine(osgi); AutoCloseable ferryClient = startClient(client, engine)) {
                assertThatThrownBy(() -> pullConsumer(client, ferryClient, "Before", noConfig(osgi)))
                    .cause().hasMessageContaining("queue-id-modulo");

                osgi.installAndStart(sample);

                try (AutoCloseable consumer = pullConsumer(client, ferryClient, "After", noConfig(osgi))) {
                    assertThat(consumer).isNotNull();
                }
            }
        }
    }

    @Test
    void aConsumerWhosePluginBundleGoesIsToldOnceStopsAndLeavesNoClassLoaderBehind() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            Path sampleJar = installAllButTheSample(osgi);
            Bundle client = osgi.bundle("dev.ferry.client");
            try (AutoCloseable engine = startEngine(osgi); AutoCloseable ferryClient = startClient(client, engine)) {
                Bundle sample = osgi.installAndStart(sampleJar);
                WeakReference<ClassLoader> sampleLoader = new WeakReference<>(
                        sample.adapt(BundleWiring.class).getClassLoader());
                AutoCloseable consumer = pullConsumer(client, ferryClient, "Withdrawn", noConfig(osgi));

                osgi.uninstall(sample);

                await().atMost(Duration.ofSeconds(30)).until(() -> !warnings.isEmpty());
                assertThat(warnings).singleElement().asString().contains("queue-id-modulo").contains("Withdrawn")
                    .contains("dev.ferry.samples.custom");
                consumer = null; // what the application holds goes too; Ferry must hold nothing of it
                sample = null;
                awaitCollected(sampleLoader);
                assertThat(warnings).hasSize(1);
            }
        }
    }

    @Test
    void aConsumerWithAFallbackGoesOnWithItWhenItsStrategysBundleGoesAndHoldsNoClassLoaderOfIt() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            Path sampleJar = installAllButTheSample(osgi);
            Bundle client = osgi.bundle("dev.ferry.client");
            try (AutoCloseable engine = startEngine(osgi); AutoCloseable ferryClient = startClient(client, engine)) {
                Bundle sample = osgi.installAndStart(sampleJar);
                WeakReference<ClassLoader> sampleLoader = new WeakReference<>(
                        sample.adapt(BundleWiring.class).getClassLoader());
                Object builder = callStatic(client.loadClass("dev.ferry.client.PullConsumerConfig"), "builder",
                        "FallingBack");
                call(builder, "allocateStrategy", "queue-id-modulo", noConfig(osgi));
                call(builder, "fallbackAllocateStrategy", "averagely");
                call(builder, "consumeFromWhere", firstOffset(client));
                AutoCloseable consumer = (AutoCloseable) call(ferryClient, "pullConsumer", call(builder, "build"));
                send(osgi, ferryClient, "before");
                call(consumer, "subscribe", "FallbackTopic", "*");
                assertThat(pollUntilBody(consumer, "before")).isTrue();

                osgi.uninstall(sample);

                await().atMost(Duration.ofSeconds(30)).until(() -> !warnings.isEmpty());
                assertThat(warnings).singleElement().asString().contains("queue-id-modulo").contains("FallingBack")
                    .contains("dev.ferry.samples.custom").contains("goes on with allocation strategy averagely");
                sample = null;
                // The consumer is still held and running, yet nothing of the gone strategy is.
                awaitCollected(sampleLoader);
                send(osgi, ferryClient, "after");
                assertThat(pollUntilBody(consumer, "after")).isTrue();
                assertThat(warnings).hasSize(1);
                consumer.close();
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object firstOffset(Bundle client) throws Exception {
        return Enum.valueOf((Class) client.loadClass("dev.ferry.client.ConsumeFromWhere"), "FIRST_OFFSET");
    }

    /** Waits until nothing holds what {@code reference} refers to, collecting garbage meanwhile. */
    private static void awaitCollected(WeakReference<?> reference) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return reference.get() == null;
        });
    }

    /** Sends a message with {@code body} to FallbackTopic through a producer of {@code ferryClient}. */
    private static void send(OsgiFramework osgi, Object ferryClient, String body) throws Exception {
        Bundle client = osgi.bundle("dev.ferry.client");
        Object producerConfig = call(callStatic(client.loadClass("dev.ferry.client.ProducerConfig"), "builder",
                "PG_" + body), "build");
        Object producer = call(ferryClient, "producer", producerConfig);
        Object message = callStatic(osgi.bundle("dev.ferry.api").loadClass("dev.ferry.api.Message"), "builder",
                "FallbackTopic");
        call(message, "body", (Object) body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        call(producer, "send", call(message, "build"));
    }

    /** Polls until a message with {@code body} comes (true) or 30 s pass (false). */
    private static boolean pollUntilBody(Object consumer, String body) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            for (Object message : (List<?>) call(consumer, "poll", Duration.ofMillis(500))) {
                if (new String((byte[]) call(message, "body"), java.nio.charset.StandardCharsets.UTF_8)
                        .equals(body)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Test
    void aPushConsumerThatFailedToStartIsNotToldAboutItsPluginLater() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            Path sampleJar = installAllButTheSample(osgi);
            Bundle client = osgi.bundle("dev.ferry.client");
            try (AutoCloseable engine = startEngine(osgi); AutoCloseable ferryClient = startClient(client, engine)) {
                Bundle sample = osgi.installAndStart(sampleJar);
                Object listener = Proxy.newProxyInstance(client.loadClass("dev.ferry.client.FerryClient")
                        .getClassLoader(), new Class<?>[] {osgi.bundle("dev.ferry.api")
                        .loadClass("dev.ferry.api.MessageListener")}, (proxy, method, args) -> null);
                pushConsumer(osgi, client, ferryClient, listener);
                // a second consumer of the same group in one client does not start
                assertThatThrownBy(() -> pushConsumer(osgi, client, ferryClient, listener))
                    .cause().hasMessageContaining("already runs");

                osgi.uninstall(sample);

                await().atMost(Duration.ofSeconds(30)).until(() -> !warnings.isEmpty());
                osgi.awaitBundleEventsDelivered(storage);

                // the running consumer's warning only: the one that never started watches nothing
                assertThat(warnings).singleElement().asString().contains("queue-id-modulo").contains("Twice");
            }
        }
    }

    private static Object pushConsumer(OsgiFramework osgi, Bundle client, Object ferryClient, Object listener)
            throws Exception {
        Object builder = callStatic(client.loadClass("dev.ferry.client.PushConsumerConfig"), "builder", "Twice");
        call(builder, "subscribe", "TopicTwice", "*");
        call(builder, "allocateStrategy", "queue-id-modulo", noConfig(osgi));
        return call(ferryClient, "pushConsumer", call(builder, "build"), listener);
    }

    /** A log handler that keeps the messages of warnings and worse. */
    private static Handler warningsInto(List<String> warnings) {
        return new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }

    /** Installs and starts every bundle but the sample plugin's; returns the sample's jar. */
    private static Path installAllButTheSample(OsgiFramework osgi) throws Exception {
        Path sample = null;
        for (Path jar : OsgiFramework.bundleJars(OsgiFramework.bundleDirectory())) {
            if (jar.getFileName().toString().startsWith("ferry-sample-custom-strategy")) {
                sample = jar;
            } else {
                osgi.install(jar);
            }
        }
        assertThat(osgi.startAll()).isEmpty();
        return Objects.requireNonNull(sample, "no sample plugin among the bundles");
    }

    private AutoCloseable startEngine(OsgiFramework osgi) throws Exception {
        Object settings = callStatic(osgi.bundle("dev.ferry.server").loadClass(
                "dev.ferry.server.embedded.EmbeddedEngine"), "settings", storage.resolve("store"));
        call(settings, "namesrvPort", 0);
        call(settings, "brokerPort", 0);
        return (AutoCloseable) call(settings, "start");
    }

    private static AutoCloseable startClient(Bundle client, Object engine) throws Exception {
        Class<?> configType = client.loadClass("dev.ferry.client.ClientConfig");
        Object config = call(callStatic(configType, "builder",
                (Object) new String[] {(String) call(engine, "nameServerAddress")}), "build");
        return (AutoCloseable) client.loadClass("dev.ferry.client.FerryClient").getConstructor(configType)
                .newInstance(config);
    }

    private static Object noConfig(OsgiFramework osgi) throws Exception {
        return callStatic(osgi.bundle("dev.ferry.spi").loadClass("dev.ferry.spi.PluginConfig"), "empty");
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
