package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.ra.inbound.FerryActivationSpec;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The adapter's management beans in the platform MBean server: the embedded engine and each activation. */
@Tag("integration")
class ManagementBeansTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final MBeanServer BEANS = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    static Path storeDir;
    private static FerryResourceAdapter adapter;
    private static FerryConnectionFactory factory;

    @BeforeAll
    static void startAdapter() throws Exception {
        adapter = TestAdapters.embedded(storeDir);
        adapter.start(new FakeBootstrapContext());
        factory = TestAdapters.connectionFactory(adapter);
    }

    @AfterAll
    static void stopAdapter() {
        if (adapter != null) {
            adapter.stop();
        }
    }

    private static ObjectName activationOf(String group) throws Exception {
        Set<ObjectName> names = BEANS.queryNames(new ObjectName("dev.ferry:type=Activation,*"), null);
        for (ObjectName name : names) {
            if (group.equals(BEANS.getAttribute(name, "ConsumerGroup"))) {
                return name;
            }
        }
        return null;
    }

    private static long longAttribute(ObjectName name, String attribute) throws Exception {
        return ((Number) BEANS.getAttribute(name, attribute)).longValue();
    }

    @Test
    void anActivationShowsItsDeliveriesFailuresAndLagAndGoesWithIt() throws Exception {
        String topic = TestAdapters.unique("Beans");
        String group = TestAdapters.unique("CG");
        try (FerryConnection connection = factory.getConnection()) {
            for (String body : new String[] {"ok-1", "fail-once", "ok-2"}) {
                connection.send(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build());
            }
        }
        AtomicInteger failures = new AtomicInteger();
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(m -> {
            if (new String(m.body(), StandardCharsets.UTF_8).equals("fail-once") && failures.getAndIncrement() == 0) {
                throw new IllegalStateException("not yet");
            }
        });
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, group);
        adapter.endpointActivation(endpoints, spec);
        ObjectName bean;
        try {
            await().atMost(WAIT).until(() -> activationOf(group) != null);
            bean = activationOf(group);
            await().atMost(WAIT).until(() -> longAttribute(bean, "Delivered") == 3);
            assertThat(longAttribute(bean, "Failed")).isEqualTo(1);
            assertThat(longAttribute(bean, "Retried")).isEqualTo(1);
            assertThat(longAttribute(bean, "DeadLettered")).isZero();
            assertThat(BEANS.getAttribute(bean, "Topic")).isEqualTo(topic);
            assertThat(BEANS.getAttribute(bean, "Consuming")).isEqualTo(true);
            assertThat(BEANS.getAttribute(bean, "NameServerReachable")).isEqualTo(true);
            await().atMost(WAIT).until(() -> longAttribute(bean, "Lag") == 0 && longAttribute(bean, "InFlight") == 0);
            ObjectName engine = BEANS.queryNames(new ObjectName("dev.ferry:type=EmbeddedEngine,*"), null).iterator()
                    .next();
            assertThat(longAttribute(engine, "MessagesIn")).isGreaterThanOrEqualTo(3);
            assertThat(longAttribute(engine, "ConsumerConnections")).isPositive();
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }
        assertThat(BEANS.isRegistered(bean)).isFalse();
    }

    @Test
    void anActivationWhoseNameServerDoesNotAnswerSaysSoOnceAndInItsBean() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String group = TestAdapters.unique("CG");
        FerryActivationSpec spec = TestAdapters.spec(adapter, TestAdapters.unique("Unreachable"), group);
        spec.setNameServer("127.0.0.1:" + closedPort);
        AtomicInteger loudLines = new AtomicInteger();
        AtomicInteger stackTraces = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = String.valueOf(record.getMessage());
                if (record.getLevel().intValue() >= java.util.logging.Level.INFO.intValue()
                        && (message.contains(group) || message.contains(String.valueOf(closedPort)))) {
                    loudLines.incrementAndGet();
                }
                if (message.startsWith("rebalance of") && message.contains(group)) {
                    attempts.incrementAndGet();
                }
                if (record.getThrown() != null) {
                    stackTraces.incrementAndGet();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger client = Logger.getLogger("dev.ferry.client");
        java.util.logging.Level level = client.getLevel();
        client.setLevel(java.util.logging.Level.FINE); // to see each attempt, which is logged at debug level
        counter.setLevel(java.util.logging.Level.ALL);
        client.addHandler(counter);
        RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting();
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> activationOf(group) != null
                    && BEANS.getAttribute(activationOf(group), "NameServerReachable").equals(false));
            assertThat((String) BEANS.getAttribute(activationOf(group), "NameServerProblem"))
                    .contains(String.valueOf(closedPort));
            // the consumer keeps trying, once a second: still the one line (FERRY-CL-0100), and no stack trace
            await().atMost(WAIT).until(() -> attempts.get() >= 3);
            assertThat(loudLines.get()).isEqualTo(1);
            assertThat(stackTraces.get()).isZero();
        } finally {
            client.removeHandler(counter);
            client.setLevel(level);
            adapter.endpointDeactivation(endpoints, spec);
        }
    }
}
