package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.AllocateStrategyProvider;
import dev.ferry.spi.AllocateStrategyResolver;
import dev.ferry.spi.FilterableMessage;
import dev.ferry.spi.MessageFilter;
import dev.ferry.spi.MessageFilterProvider;
import dev.ferry.spi.PluginConfig;
import jakarta.resource.spi.InvalidPropertyException;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where an activation finds its plugins: the adapter's plugin directory, the bean's own application, and the
 * adapter itself; and how an unknown name is refused.
 */
class PluginLookupTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path directory;
    private FerryResourceAdapter adapter;
    private URLClassLoader application;

    @AfterEach
    void stop() throws IOException {
        if (adapter != null) {
            adapter.stop();
        }
        if (application != null) {
            application.close();
        }
    }

    @Test
    void shouldRefuseAnUnknownStrategyInValidateNamingThePropertyAndTheNamesFound() throws Exception {
        adapter = started(null);
        FerryActivationSpec spec = TestAdapters.spec(adapter, TestAdapters.unique("Plugins"),
                TestAdapters.unique("CG"));
        spec.setAllocateStrategy("dir-counting");

        assertThatThrownBy(spec::validate).isInstanceOfSatisfying(InvalidPropertyException.class, e -> {
            assertThat(e).hasMessageContaining("allocateStrategy = 'dir-counting'")
                    .hasMessageContaining("no allocate strategy plugin of that name; found: ")
                    .hasMessageContaining("averagely").hasMessageContaining("consistent-hash");
            assertThat(e.getInvalidPropertyDescriptors()).extracting(PropertyDescriptor::getName)
                    .containsExactly("allocateStrategy");
        });
    }

    @Test
    void shouldRefuseAnUnknownOffsetStoreAndAFilterTheEmbeddedBrokerLacks() throws Exception {
        adapter = started(null);
        FerryActivationSpec spec = TestAdapters.spec(adapter, TestAdapters.unique("Plugins"),
                TestAdapters.unique("CG"));
        spec.setOffsetStore("nowhere");
        spec.setSelectorType("BODY_LENGTH");

        assertThatThrownBy(spec::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("offsetStore = 'nowhere': no offset store plugin of that name; found: ")
                .hasMessageContaining("selectorType = 'BODY_LENGTH': no message filter plugin of that name; found: "
                        + "TAG, SQL92");
    }

    @Test
    void shouldServeActivationsFromThePluginDirectory() throws Exception {
        Path plugins = Files.createDirectories(directory.resolve("plugins"));
        declare(plugins.resolve("counting.jar"), AllocateStrategyProvider.class, DirCountingProvider.class);
        declare(plugins.resolve("prefix.jar"), MessageFilterProvider.class, KeepPrefixFilterProvider.class);
        adapter = started(plugins);
        String topic = TestAdapters.unique("Plugins");
        send(topic, "keep-1", "drop-2", "keep-3", "last-keep", "keep-4");
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        spec.setAllocateStrategy("dir-counting");
        spec.setSelectorType(KeepPrefixFilterProvider.TYPE);
        spec.setSelectorExpression("keep");
        spec.validate();
        int before = DirCountingProvider.ALLOCATIONS.get();

        List<String> bodies = deliver(spec, RecordingEndpointFactory.accepting(), "keep-4");

        assertThat(bodies).containsExactly("keep-1", "keep-3", "keep-4");
        assertThat(DirCountingProvider.ALLOCATIONS.get()).isGreaterThan(before);
    }

    @Test
    void shouldServeABeanThePluginsItsOwnApplicationCarriesAndNoOtherBean() throws Exception {
        adapter = started(null);
        Path jar = directory.resolve("app-plugin.jar");
        declare(jar, AllocateStrategyProvider.class, AppCountingProvider.class);
        application = new URLClassLoader("test-app", new URL[] {jar.toUri().toURL()}, getClass().getClassLoader());
        String topic = TestAdapters.unique("Plugins");
        send(topic, "one", "two");
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        spec.setAllocateStrategy("app-counting");
        // The container validates in the bean's application.
        withContextLoader(application, spec::validate);
        int before = AppCountingProvider.ALLOCATIONS.get();

        List<String> bodies = deliver(spec, RecordingEndpointFactory.accepting().endpointClass(classOf(application)),
                "two");

        assertThat(bodies).containsExactly("one", "two");
        assertThat(AppCountingProvider.ALLOCATIONS.get()).isGreaterThan(before);
        FerryActivationSpec another = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        another.setAllocateStrategy("app-counting");
        assertThatThrownBy(() -> adapter.endpointActivation(RecordingEndpointFactory.accepting(), another))
                .hasMessageContaining("allocateStrategy = 'app-counting': no allocate strategy plugin");
    }

    /** A class defined by {@code loader}, as the bean's class is defined by its application's loader. */
    private static Class<?> classOf(ClassLoader loader) {
        return Proxy.newProxyInstance(loader, new Class<?>[] {Runnable.class}, (proxy, method, args) -> null)
                .getClass();
    }

    private List<String> deliver(FerryActivationSpec spec, RecordingEndpointFactory endpoints, String last)
            throws Exception {
        spec.setConsumeMode("ORDERLY");
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.received().stream().anyMatch(m -> body(m).equals(last)));
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }
        return endpoints.received().stream().map(PluginLookupTest::body).toList();
    }

    private static String body(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private FerryResourceAdapter started(Path plugins) throws Exception {
        FerryResourceAdapter started = TestAdapters.embedded(directory.resolve("store"));
        if (plugins != null) {
            started.setPluginDir(plugins.toString());
        }
        started.start(new FakeBootstrapContext());
        return started;
    }

    private void send(String topic, String... bodies) throws Exception {
        FerryConnectionFactory factory = TestAdapters.connectionFactory(adapter);
        try (FerryConnection connection = factory.getConnection()) {
            for (String body : bodies) {
                // One queue, read in order: once the last wanted message is in, every earlier one was decided.
                connection.sendOrdered(Message.builder(topic).tags(body).body(body.getBytes(StandardCharsets.UTF_8))
                        .build(), "one-queue");
            }
        }
    }

    private static void withContextLoader(ClassLoader loader, ThrowingAction action) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            action.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @FunctionalInterface
    private interface ThrowingAction {
        void run() throws Exception;
    }

    /** A plugin jar: a service file declaring {@code provider}, whose class the parent loader provides. */
    private static void declare(Path jar, Class<?> kind, Class<?> provider) throws IOException {
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry("META-INF/services/" + kind.getName()));
            out.write((provider.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            out.closeEntry();
        }
    }

    /** Every queue to every client, counting the rebalances that asked it. */
    abstract static class CountingProvider implements AllocateStrategyProvider {
        private final String name;
        private final AtomicInteger allocations;

        CountingProvider(String name, AtomicInteger allocations) {
            this.name = name;
            this.allocations = allocations;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public AllocateStrategy create(PluginConfig config, AllocateStrategyResolver strategies) {
            return new CountingStrategy(name, allocations);
        }
    }

    /** Declared only by the plugin directory's jar. */
    public static class DirCountingProvider extends CountingProvider {
        static final AtomicInteger ALLOCATIONS = new AtomicInteger();

        public DirCountingProvider() {
            super("dir-counting", ALLOCATIONS);
        }
    }

    /** Declared only by the "application". */
    public static class AppCountingProvider extends CountingProvider {
        static final AtomicInteger ALLOCATIONS = new AtomicInteger();

        public AppCountingProvider() {
            super("app-counting", ALLOCATIONS);
        }
    }

    private record CountingStrategy(String name, AtomicInteger allocations) implements AllocateStrategy {
        @Override
        public List<MessageQueue> allocate(String group, String clientId, List<MessageQueue> queues,
                                           List<String> clientIds) {
            allocations.incrementAndGet();
            return queues;
        }
    }

    /** {@code KEEP_PREFIX}: messages whose tag starts with the expression. */
    public static class KeepPrefixFilterProvider implements MessageFilterProvider {
        static final String TYPE = "KEEP_PREFIX";
        private static final Map<String, MessageFilter> COMPILED = new ConcurrentHashMap<>();

        @Override
        public String name() {
            return TYPE;
        }

        @Override
        public MessageFilter compile(String expression) {
            return COMPILED.computeIfAbsent(expression, PrefixFilter::new);
        }
    }

    private record PrefixFilter(String expression) implements MessageFilter {
        @Override
        public String expressionType() {
            return KeepPrefixFilterProvider.TYPE;
        }

        @Override
        public boolean mayMatchTagsCode(long tagsCode) {
            return true;
        }

        @Override
        public boolean matches(FilterableMessage message) {
            return message.tags().filter(tags -> tags.startsWith(expression)).isPresent();
        }
    }
}
