package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.SendResult;
import dev.ferry.ra.RecordingEndpointFactory.Call;
import dev.ferry.ra.inbound.FerryActivationSpec;
import dev.ferry.server.FerryServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One adapter in embedded mode, with activations delivering what its connection factory sends. */
@Tag("integration")
class EmbeddedAdapterTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path storeDir;
    private static FakeBootstrapContext context;
    private static FerryResourceAdapter adapter;
    private static FerryConnectionFactory factory;

    @BeforeAll
    static void startAdapter() throws Exception {
        context = new FakeBootstrapContext();
        adapter = TestAdapters.embedded(storeDir);
        adapter.setThreadPlacement("work"); // every thread on a WorkManager thread, which this class checks
        adapter.start(context);
        factory = TestAdapters.connectionFactory(adapter);
    }

    @AfterAll
    static void stopAdapter() {
        if (adapter != null) {
            adapter.stop();
        }
    }

    private static Message text(String topic, String body) {
        return Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    private static String text(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private static SendResult send(Message message) {
        try (FerryConnection connection = factory.getConnection()) {
            return connection.send(message);
        }
    }

    /** Activates {@code endpoints} until they have delivered one message and been released, then deactivates them. */
    private static void deliverOne(RecordingEndpointFactory endpoints, FerryActivationSpec spec) throws Exception {
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.released() == 1);
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }
    }

    @Test
    void shouldRunTheEngineOnFreePortsOnWorkManagerThreads() throws Exception {
        FerryServer server = adapter.runtime().embeddedEngine().orElseThrow().server();
        assertThat(server.namesrvPort()).isPositive();
        assertThat(server.brokerPort()).isPositive();
        assertThat(adapter.runtime().nameServerAddress()).isEqualTo("127.0.0.1:" + server.namesrvPort());
        assertThat(context.fakeWorkManager().running()).isPositive();
        assertThat(context.fakeWorkManager().hints()).isNotEmpty()
                .allSatisfy(h -> assertThat(h.getHints()).containsEntry(
                        jakarta.resource.spi.work.HintsContext.LONGRUNNING_HINT, Boolean.TRUE));
        Set<Thread> workThreads = context.fakeWorkManager().threads();
        Set<String> strays = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("ferry") && !workThreads.contains(t))
                .map(Thread::getName).collect(Collectors.toSet());
        assertThat(strays).as("engine threads that did not come from the WorkManager").isEmpty();
    }

    @Test
    void shouldDeliverWhatTheConnectionFactorySentUnchanged() throws Exception {
        String topic = TestAdapters.unique("Delivery");
        Message sent = Message.builder(topic).body("hello".getBytes(StandardCharsets.UTF_8)).tags("TagA")
                .keys("k1", "k2").property("color", "blue").property("size", "L").build();
        SendResult result = send(sent);
        RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting();
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        deliverOne(endpoints, spec);
        ReceivedMessage received = endpoints.received().get(0);
        assertThat(received.topic()).isEqualTo(topic);
        assertThat(received.body()).isEqualTo(sent.body());
        assertThat(received.tags()).contains("TagA");
        assertThat(received.keys()).containsExactly("k1", "k2");
        assertThat(received.property("color")).contains("blue");
        assertThat(received.property("size")).contains("L");
        assertThat(received.msgId()).isEqualTo(result.msgId());
        assertThat(received.reconsumeTimes()).isZero();
        assertThat(endpoints.calls()).extracting(Call::step)
                .containsExactly("beforeDelivery", "onMessage", "afterDelivery", "release");
        assertThat(endpoints.calls().get(0).method().getName()).isEqualTo("onMessage");
        assertThat(endpoints.calls().get(0).method().getDeclaringClass()).isEqualTo(dev.ferry.api.MessageListener.class);
    }

    @Test
    void shouldDeliverAMessageSentWithADelayNoEarlierThanItsDelay() throws Exception {
        String topic = TestAdapters.unique("Delayed");
        long sentAt = System.currentTimeMillis();
        SendResult result = send(Message.builder(topic).body("later".getBytes(StandardCharsets.UTF_8))
                .deliverAfter(Duration.ofSeconds(3)).build());
        AtomicLong arrivedAt = new AtomicLong();
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(
                message -> arrivedAt.compareAndSet(0, System.currentTimeMillis()));
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        deliverOne(endpoints, spec);
        assertThat(arrivedAt.get() - sentAt).isGreaterThanOrEqualTo(3000);
        assertThat(endpoints.received()).singleElement().satisfies(received -> {
            assertThat(text(received)).isEqualTo("later");
            assertThat(received.msgId()).isEqualTo(result.msgId());
        });
    }

    @Test
    void shouldRedeliverWhenTheEndpointThrows() throws Exception {
        String topic = TestAdapters.unique("Retry");
        send(text(topic, "fail-once"));
        AtomicBoolean failed = new AtomicBoolean();
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(m -> {
            if (failed.compareAndSet(false, true)) {
                throw new IllegalStateException("not yet");
            }
        });
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.received().size() == 2 && endpoints.released() == 2);
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }
        ReceivedMessage first = endpoints.received().get(0);
        ReceivedMessage again = endpoints.received().get(1);
        assertThat(text(again)).isEqualTo("fail-once");
        assertThat(again.topic()).isEqualTo(topic);
        assertThat(again.msgId()).isEqualTo(first.msgId());
        assertThat(first.reconsumeTimes()).isZero();
        assertThat(again.reconsumeTimes()).isEqualTo(1);
        // The failed delivery still went through afterDelivery and release.
        assertThat(endpoints.calls()).extracting(Call::step).containsExactly("beforeDelivery", "onMessage",
                "afterDelivery", "release", "beforeDelivery", "onMessage", "afterDelivery", "release");
    }

    @Test
    void shouldBackOffWhileNoEndpointIsAvailableAndDeliverWithoutARetry() throws Exception {
        String topic = TestAdapters.unique("Unavailable");
        send(text(topic, "patience"));
        RecordingEndpointFactory endpoints = RecordingEndpointFactory.accepting().refuseEndpoints(4);
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        deliverOne(endpoints, spec);
        assertThat(endpoints.refused()).isEqualTo(4);
        // Delivered once, as a first delivery: waiting for an endpoint was not a failed consumption.
        assertThat(endpoints.received()).singleElement().satisfies(message -> {
            assertThat(text(message)).isEqualTo("patience");
            assertThat(message.reconsumeTimes()).isZero();
        });
    }

    @Test
    void shouldLeaveAMessageWaitingForAnEndpointUncountedWhenDeactivated() throws Exception {
        String topic = TestAdapters.unique("Undeployed");
        String group = TestAdapters.unique("CG");
        send(text(topic, "never delivered here"));
        RecordingEndpointFactory unavailable = RecordingEndpointFactory.accepting().refuseEndpoints(Integer.MAX_VALUE);
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, group);
        adapter.endpointActivation(unavailable, spec);
        await().atMost(WAIT).until(() -> unavailable.refused() >= 2);
        adapter.endpointDeactivation(unavailable, spec); // the application goes away while the message waits
        assertThat(unavailable.received()).isEmpty();

        RecordingEndpointFactory next = RecordingEndpointFactory.accepting();
        FerryActivationSpec nextSpec = TestAdapters.spec(adapter, topic, group);
        adapter.endpointActivation(next, nextSpec);
        try {
            await().atMost(WAIT).until(() -> next.released() == 1);
        } finally {
            adapter.endpointDeactivation(next, nextSpec);
        }
        // Still a first delivery: the wait for an endpoint never counted as a failed one.
        assertThat(next.received()).singleElement().satisfies(message -> {
            assertThat(text(message)).isEqualTo("never delivered here");
            assertThat(message.reconsumeTimes()).isZero();
        });
    }

    @Test
    void shouldNeverRunMoreDeliveriesThanMaxConcurrency() throws Exception {
        String topic = TestAdapters.unique("Concurrency");
        for (int i = 0; i < 12; i++) {
            send(text(topic, "m" + i));
        }
        CountDownLatch release = new CountDownLatch(1);
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(m -> release.await(WAIT.toSeconds(),
                TimeUnit.SECONDS));
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        spec.setMaxConcurrency(3);
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.concurrent() == 3);
            // Twelve messages wait; hold the three deliveries a little to give a fourth every chance to start.
            Thread.sleep(300);
            assertThat(endpoints.concurrent()).isEqualTo(3);
            release.countDown();
            await().atMost(WAIT).until(() -> endpoints.released() == 12);
        } finally {
            release.countDown();
            adapter.endpointDeactivation(endpoints, spec);
        }
        assertThat(endpoints.maxConcurrent()).isEqualTo(3);
        assertThat(endpoints.received()).extracting(EmbeddedAdapterTest::text).hasSize(12).doesNotHaveDuplicates();
    }

    @Test
    void shouldStopDeliveringAndReleaseEveryEndpointOnDeactivation() throws Exception {
        String topic = TestAdapters.unique("Deactivate");
        send(text(topic, "before"));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(m -> {
            if (text(m).equals("before")) {
                inside.countDown();
                finish.await(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        });
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        adapter.endpointActivation(endpoints, spec);
        assertThat(inside.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        // Deactivation waits for the delivery in flight, which ends normally.
        Thread deactivation = new Thread(() -> adapter.endpointDeactivation(endpoints, spec));
        deactivation.start();
        Thread.sleep(200);
        assertThat(deactivation.isAlive()).as("deactivation waits for the running delivery").isTrue();
        finish.countDown();
        deactivation.join(WAIT.toMillis());
        assertThat(deactivation.isAlive()).isFalse();
        assertThat(endpoints.released()).isEqualTo(endpoints.created()).isEqualTo(1);

        send(text(topic, "after"));
        Thread.sleep(500);
        assertThat(endpoints.received()).extracting(EmbeddedAdapterTest::text).containsExactly("before");
        assertThat(endpoints.created()).isEqualTo(1);
    }

    @Test
    void shouldDeliverEachShardingKeyInOrderInOrderlyMode() throws Exception {
        String topic = TestAdapters.unique("Orderly");
        List<String> keys = List.of("order-1", "order-2", "order-3", "order-4", "order-5");
        try (FerryConnection connection = factory.getConnection()) {
            for (int step = 0; step < 6; step++) {
                for (String key : keys) {
                    connection.sendOrdered(text(topic, key + ":" + step), key);
                }
            }
        }
        RecordingEndpointFactory endpoints = new RecordingEndpointFactory(m -> Thread.sleep(2));
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        spec.setConsumeMode("ORDERLY");
        spec.setMaxConcurrency(4);
        adapter.endpointActivation(endpoints, spec);
        try {
            await().atMost(WAIT).until(() -> endpoints.released() == 30);
        } finally {
            adapter.endpointDeactivation(endpoints, spec);
        }
        Map<String, List<Integer>> stepsByKey = new HashMap<>();
        for (ReceivedMessage message : endpoints.received()) {
            String[] parts = text(message).split(":");
            stepsByKey.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(Integer.parseInt(parts[1]));
        }
        assertThat(stepsByKey).hasSize(5);
        stepsByKey.values().forEach(steps -> assertThat(steps).containsExactly(0, 1, 2, 3, 4, 5));
    }
}
