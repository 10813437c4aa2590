package dev.ferry.osgi;

import static dev.ferry.osgi.Reflect.call;
import static dev.ferry.osgi.Reflect.callAs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.common.message.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;
import org.osgi.framework.ServiceRegistration;

/**
 * Ferry's Declarative Services components under the Service Component Runtime (Felix SCR) and Configuration Admin:
 * the server runs from its configuration, serves a client outside the framework and a consumer component inside
 * it, restarts when the configuration changes, and stops when it is deleted.
 */
@Tag("integration")
class ComponentsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path storage;
    /** The components' log lines, as logged during a test. */
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger componentsLog = Logger.getLogger("dev.ferry.components");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                lines.add(new java.util.logging.SimpleFormatter().formatMessage(record));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void captureComponentLines() {
        componentsLog.addHandler(handler);
    }

    @AfterEach
    void stopCapturing() {
        componentsLog.removeHandler(handler);
    }

    @Test
    void theServerRunsFromItsConfigurationServesClientsInAndOutsideAndStopsWhenTheConfigurationGoes()
            throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            ConfigAdmin configs = ConfigAdmin.startEverything(osgi);
            Class<?> runningType = osgi.bundle("dev.ferry.components").loadClass("dev.ferry.components.RunningServer");

            int namesrvPort = freePort();
            int brokerPort = freePort();
            Object serverConfig = configs.configuration("dev.ferry.server");
            configs.update(serverConfig, serverSettings(namesrvPort, brokerPort));
            Object running = await().atMost(WAIT).until(() -> service(osgi, runningType.getName()), s -> s != null);
            String nameServer = (String) callAs(runningType, running, "nameServerAddress");
            assertThat(nameServer).isEqualTo("127.0.0.1:" + namesrvPort);
            assertThat(callAs(runningType, running, "brokerPort")).isEqualTo(brokerPort);

            // A listener service, and a consumer component configured through Configuration Admin to feed it.
            List<String> received = new CopyOnWriteArrayList<>();
            ServiceRegistration<?> listener = registerListener(osgi, received);
            Object consumerConfig = configs.factoryConfiguration("dev.ferry.consumer", "orders");
            Dictionary<String, Object> consumer = new Hashtable<>();
            consumer.put("nameServer", nameServer);
            consumer.put("consumerGroup", "CG_COMPONENT");
            consumer.put("topic", "ComponentOrders");
            consumer.put("consumeFromWhere", "CONSUME_FROM_FIRST_OFFSET");
            consumer.put("listener.target", "(ferry.listener=orders)");
            configs.update(consumerConfig, consumer);
            await().atMost(WAIT).until(() -> lines.stream().anyMatch(l -> l.contains("CG_COMPONENT started")));

            // An unmodified Apache client outside the framework sends; the consumer inside receives.
            DefaultMQProducer producer = new DefaultMQProducer("PG_COMPONENT");
            producer.setNamesrvAddr(nameServer);
            producer.start();
            try {
                SendResult result = producer.send(new Message("ComponentOrders", "order-1".getBytes(
                        StandardCharsets.UTF_8)));
                assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            } finally {
                producer.shutdown();
            }
            await().atMost(WAIT).until(() -> received.contains("order-1"));

            // Reconfigured: the server restarts on the new broker port.
            int movedBrokerPort = freePort();
            configs.update(serverConfig, serverSettings(namesrvPort, movedBrokerPort));
            await().atMost(WAIT).until(() -> {
                Object now = service(osgi, runningType.getName());
                return now != null && callAs(runningType, now, "brokerPort").equals(movedBrokerPort);
            });
            assertThat(listening(brokerPort)).as("the old broker port").isFalse();
            assertThat(listening(movedBrokerPort)).isTrue();

            // Deleted: the consumer and the server stop; nothing listens any more.
            configs.delete(consumerConfig);
            configs.delete(serverConfig);
            await().atMost(WAIT).until(() -> service(osgi, runningType.getName()) == null);
            await().atMost(WAIT).until(() -> !listening(namesrvPort) && !listening(movedBrokerPort));
            // the component logs its stop after the server's executors ended, a little after its ports closed
            await().atMost(WAIT).until(() -> lines.stream().filter(l -> l.contains("stopped cleanly")).count() >= 2);
            assertThat(lines).filteredOn(l -> l.contains("stopped cleanly")).hasSize(2);
            listener.unregister();
        }
    }

    @Test
    void aBadServerConfigurationStartsNothingAndSaysWhichKeyIsWrong() throws Exception {
        try (OsgiFramework osgi = OsgiFramework.launch(storage.resolve("framework"))) {
            ConfigAdmin configs = ConfigAdmin.startEverything(osgi);
            int namesrvPort = freePort();
            Dictionary<String, Object> settings = serverSettings(namesrvPort, freePort());
            settings.put("maxTopcs", "10");

            configs.update(configs.configuration("dev.ferry.server"), settings);

            Class<?> runningType = osgi.bundle("dev.ferry.components").loadClass("dev.ferry.components.RunningServer");
            Class<?> runtimeType = osgi.bundle("org.apache.felix.scr").loadClass(
                    "org.osgi.service.component.runtime.ServiceComponentRuntime");
            Object scr = service(osgi, runtimeType.getName());
            await().atMost(WAIT).until(() -> failure(runtimeType, scr, osgi) != null);
            assertThat(failure(runtimeType, scr, osgi)).contains("unknown key 'maxTopcs'");
            assertThat(service(osgi, runningType.getName())).isNull();
            assertThat(listening(namesrvPort)).isFalse();
        }
    }

    /** Configuration Admin inside the framework, called through its API as the configadmin bundle loads it. */
    private record ConfigAdmin(Class<?> adminType, Class<?> configurationType, Object admin) {

        /** Installs and starts every bundle, then waits for Configuration Admin. */
        static ConfigAdmin startEverything(OsgiFramework osgi) throws Exception {
            osgi.installAll(OsgiFramework.bundleDirectory());
            assertThat(osgi.startAll()).isEmpty();
            Bundle bundle = osgi.bundle("org.apache.felix.configadmin");
            Class<?> adminType = bundle.loadClass("org.osgi.service.cm.ConfigurationAdmin");
            Object admin = await().atMost(WAIT).until(() -> service(osgi, adminType.getName()), s -> s != null);
            return new ConfigAdmin(adminType, bundle.loadClass("org.osgi.service.cm.Configuration"), admin);
        }

        Object configuration(String pid) {
            return callAs(adminType, admin, "getConfiguration", pid, "?");
        }

        Object factoryConfiguration(String factoryPid, String name) {
            return callAs(adminType, admin, "getFactoryConfiguration", factoryPid, name, "?");
        }

        void update(Object configuration, Dictionary<String, Object> properties) {
            callAs(configurationType, configuration, "update", properties);
        }

        void delete(Object configuration) {
            callAs(configurationType, configuration, "delete");
        }
    }

    /** Why the server component's configuration failed to activate, as the runtime reports it; null while none. */
    private static String failure(Class<?> runtimeType, Object scr, OsgiFramework osgi) throws Exception {
        Bundle components = osgi.bundle("dev.ferry.components");
        Object description = callAs(runtimeType, scr, "getComponentDescriptionDTO", components,
                "dev.ferry.components.FerryServerComponent");
        for (Object configuration : (java.util.Collection<?>) callAs(runtimeType, scr,
                "getComponentConfigurationDTOs", description)) {
            Object failure = configuration.getClass().getField("failure").get(configuration);
            if (failure != null) {
                return failure.toString();
            }
        }
        return null;
    }

    private Dictionary<String, Object> serverSettings(int namesrvPort, int brokerPort) {
        Dictionary<String, Object> settings = new Hashtable<>();
        settings.put("storeDir", storage.resolve("store").toString());
        settings.put("host", "127.0.0.1");
        settings.put("namesrvPort", namesrvPort);
        settings.put("brokerPort", Integer.toString(brokerPort));
        settings.put("commitLogSegmentSize", "16777216");
        return settings;
    }

    /** A MessageListener service, registered as a bundle wired to Ferry's API would, that keeps the bodies. */
    private static ServiceRegistration<?> registerListener(OsgiFramework osgi, List<String> received)
            throws Exception {
        Bundle api = osgi.bundle("dev.ferry.api");
        Class<?> listenerType = api.loadClass("dev.ferry.api.MessageListener");
        Object listener = Proxy.newProxyInstance(listenerType.getClassLoader(), new Class<?>[] {listenerType},
                (proxy, method, args) -> {
                    if (method.getName().equals("onMessage")) {
                        received.add(new String((byte[]) call(args[0], "body"), StandardCharsets.UTF_8));
                        return null;
                    }
                    return method.getName().equals("toString") ? "test listener" : null;
                });
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put("ferry.listener", "orders");
        return osgi.bundle("dev.ferry.components").getBundleContext().registerService(listenerType.getName(),
                listener, properties);
    }

    /** A service of {@code type}, or null. All of them: the launcher cannot load the type to check the wiring. */
    private static Object service(OsgiFramework osgi, String type) throws Exception {
        ServiceReference<?>[] references = osgi.context().getAllServiceReferences(type, null);
        return references == null ? null : osgi.context().getService(references[0]);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
