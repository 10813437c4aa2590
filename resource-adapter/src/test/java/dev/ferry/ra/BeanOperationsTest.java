package dev.ferry.ra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.BatchResult;
import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.ra.inbound.FerryActivationSpec;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Principal;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.security.auth.Subject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What Jakarta EE teams do with a bean beyond one message a call, against the embedded engine: batches, a poison
 * message that pauses only its queue, pausing the bean, replaying its group; the operations through its management
 * bean, as an operator's JMX console calls them.
 */
@Tag("integration")
class BeanOperationsTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final MBeanServer BEANS = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    static Path storeDir;
    private static FerryResourceAdapter adapter;
    private static FerryConnectionFactory factory;

    @BeforeAll
    static void startAdapter() throws Exception {
        adapter = TestAdapters.embedded(storeDir);
        adapter.setMessageDelayLevel(String.join(" ", Collections.nCopies(18, "200ms")));
        adapter.start(new FakeBootstrapContext());
        factory = TestAdapters.connectionFactory(adapter);
    }

    @AfterAll
    static void stopAdapter() {
        if (adapter != null) {
            adapter.stop();
        }
    }

    private static String body(ReceivedMessage message) {
        return new String(message.body(), StandardCharsets.UTF_8);
    }

    private static List<String> bodies(List<ReceivedMessage> messages) {
        return messages.stream().map(BeanOperationsTest::body).toList();
    }

    /** Sends {@code body} to queue {@code queueId} of {@code topic} (of {@link #QUEUES} queues); returns its msgId. */
    private static String send(String topic, int queueId, String body) {
        try (FerryConnection connection = factory.getConnection()) {
            return connection.sendOrdered(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8))
                    .keys(body).build(), shardingKeyOf(queueId)).msgId();
        }
    }

    /** Every topic of these tests has four queues (fewer are filled where a test needs fewer). */
    private static final int QUEUES = 4;

    /** A sharding key the producer maps to {@code queueId}: it picks queue hash mod the queue count. */
    private static String shardingKeyOf(int queueId) {
        for (int i = 0; ; i++) {
            String key = "key-" + i;
            if (Math.floorMod(key.hashCode(), QUEUES) == queueId) {
                return key;
            }
        }
    }

    private static void createTopic(String topic, int queues) throws Exception {
        TestAdapters.createTopic(adapter, topic, queues);
    }

    private static String broker() throws Exception {
        return adapter.runtime().embeddedEngine().orElseThrow().server().broker().address();
    }

    private static long deadLettered(String group) throws Exception {
        return TestAdapters.deadLettered(adapter, group);
    }

    private static ObjectName activationOf(String group) throws Exception {
        for (ObjectName name : BEANS.queryNames(new ObjectName("dev.ferry:type=Activation,*"), null)) {
            if (group.equals(BEANS.getAttribute(name, "ConsumerGroup"))) {
                return name;
            }
        }
        throw new AssertionError("no activation bean of " + group);
    }

    /** An activation bean's attributes, for a failure's message. */
    private static String attributes(String group, String endpoint) {
        try {
            return attributesOf(group, endpoint);
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String attributesOf(String group, String endpoint) throws Exception {
        for (ObjectName name : BEANS.queryNames(new ObjectName("dev.ferry:type=Activation,*"), null)) {
            if (group.equals(BEANS.getAttribute(name, "ConsumerGroup")) && endpoint.equals(BEANS.getAttribute(name,
                    "Endpoint"))) {
                StringBuilder text = new StringBuilder();
                for (javax.management.MBeanAttributeInfo a : BEANS.getMBeanInfo(name).getAttributes()) {
                    Object value = BEANS.getAttribute(name, a.getName());
                    text.append(a.getName()).append('=').append(value instanceof Object[] array
                            ? java.util.Arrays.toString(array) : value).append(' ');
                }
                return text.toString();
            }
        }
        return "none";
    }

    private static Object invoke(String group, String operation, Object... arguments) throws Exception {
        String[] signature = new String[arguments.length];
        java.util.Arrays.fill(signature, String.class.getName());
        return BEANS.invoke(activationOf(group), operation, arguments, signature);
    }

    private static FerryActivationSpec spec(String topic, String group, String mode) {
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, group);
        spec.setConsumeMode(mode);
        return spec;
    }

    @Test
    void shouldDeliverAnOrderlyBatchBeanEachQueuesMessagesInOrderWithinAndAcrossBatches() throws Exception {
        String topic = TestAdapters.unique("Batches");
        String group = TestAdapters.unique("CG");
        createTopic(topic, QUEUES);
        for (int i = 0; i < 30; i++) {
            send(topic, i % 2, "q" + (i % 2) + "-" + String.format("%02d", i / 2));
        }
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(b -> BatchResult.consumed());
        FerryActivationSpec spec = spec(topic, group, "ORDERLY");
        spec.setMaxBatchSize(4);
        spec.setMaxBatchWait("100ms");
        adapter.endpointActivation(beans, spec);
        try {
            await().atMost(WAIT).until(() -> beans.received().size() >= 30);
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(beans.batches()).allSatisfy(batch -> {
            assertThat(batch).hasSizeBetween(1, 4);
            assertThat(batch).extracting(ReceivedMessage::queueId).containsOnly(batch.get(0).queueId());
        });
        for (int queue = 0; queue < 2; queue++) {
            int id = queue;
            List<String> seen = beans.received().stream().filter(m -> m.queueId() == id).map(BeanOperationsTest::body)
                    .toList();
            assertThat(seen).hasSize(15).isSorted();
        }
    }

    @Test
    void shouldDeliverAgainOnlyTheMessagesFromTheOneABatchBeanNamesAsFailed() throws Exception {
        String topic = TestAdapters.unique("Partial");
        String group = TestAdapters.unique("CG");
        createTopic(topic, QUEUES);
        for (int i = 0; i < 5; i++) {
            send(topic, 0, "m" + i);
        }
        RecordingEndpointFactory beans = RecordingEndpointFactory.batches(batch -> {
            for (ReceivedMessage message : batch) {
                if (body(message).equals("m2") && message.reconsumeTimes() == 0) {
                    return BatchResult.failedFrom(message);
                }
            }
            return BatchResult.consumed();
        });
        FerryActivationSpec spec = spec(topic, group, "CONCURRENTLY");
        spec.setMaxBatchSize(5);
        spec.setMaxBatchWait("1s");
        adapter.endpointActivation(beans, spec);
        try {
            await().atMost(WAIT).until(() -> beans.received().size() >= 8);
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(bodies(beans.batches().get(0))).containsExactly("m0", "m1", "m2", "m3", "m4");
        List<String> again = beans.received().stream().filter(m -> m.reconsumeTimes() == 1)
                .map(BeanOperationsTest::body).sorted().toList();
        assertThat(again).as("m0 and m1 were consumed").containsExactly("m2", "m3", "m4");
    }

    @Test
    void shouldPauseOnlyTheQueueOfAnOrderlyPoisonMessageAndGoOnInOrderWhenResumed() throws Exception {
        poisonPausesOneQueue("ORDERLY", false);
    }

    @Test
    void shouldPauseOnlyTheQueueOfAConcurrentPoisonMessageAndSkipItToTheDeadLetterQueue() throws Exception {
        poisonPausesOneQueue("CONCURRENTLY", true);
    }

    private void poisonPausesOneQueue(String mode, boolean skip) throws Exception {
        String topic = TestAdapters.unique("Poison");
        String group = TestAdapters.unique("CG");
        // the topic is created by the first send, after the bean started
        List<String> healed = new CopyOnWriteArrayList<>();
        RecordingEndpointFactory beans = new RecordingEndpointFactory(message -> {
            if (body(message).equals("poison") && !healed.contains("poison")) {
                throw new IllegalStateException("cannot process the poison");
            }
        });
        FerryActivationSpec spec = spec(topic, group, mode);
        spec.setPauseQueueAfterFailures(3);
        spec.setRedeliveryDelay("100ms");
        adapter.endpointActivation(beans, spec);
        String poison;
        try {
            poison = send(topic, 0, "poison");
            boolean orderly = mode.equals("ORDERLY");
            if (orderly) {
                sendAfter(topic); // they wait behind the poison in queue order
            }
            for (int queue = 1; queue < 4; queue++) {
                for (int i = 0; i < 5; i++) {
                    send(topic, queue, "q" + queue + "-" + i);
                }
            }
            await().atMost(WAIT).until(() -> ((String[]) BEANS.getAttribute(activationOf(group), "PausedQueues"))
                    .length == 1);
            await().atMost(WAIT).until(() -> bodies(beans.received()).stream().filter(b -> b.startsWith("q")).count()
                    == 15);
            if (!orderly) {
                sendAfter(topic); // concurrently, what came before the pause went on; what comes after waits
                // the poison and the three behind it: pulled, held, not delivered
                await().atMost(WAIT).until(() -> ((Number) BEANS.getAttribute(activationOf(group), "InFlight"))
                        .longValue() == 4);
            }
            String[] paused = (String[]) BEANS.getAttribute(activationOf(group), "PausedQueues");
            assertThat(paused[0]).startsWith(topic + ":").contains(":0 msgId=" + poison, "failures=3",
                    "cannot process the poison");
            assertThat(bodies(beans.received())).as("the paused queue's later messages wait")
                    .doesNotContain("after-0", "after-1", "after-2");
            assertThat(bodies(beans.received()).stream().filter("poison"::equals).count()).isEqualTo(3);

            String queue = paused[0].substring(0, paused[0].indexOf(' '));
            if (skip) {
                invoke(group, "skipMessage", queue);
            } else {
                healed.add("poison");
                invoke(group, "resumeQueue", queue);
            }
            await().atMost(WAIT).until(() -> bodies(beans.received()).containsAll(List.of("after-0", "after-1",
                    "after-2")));
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        List<String> queue0 = beans.received().stream().filter(m -> m.queueId() == 0).map(BeanOperationsTest::body)
                .filter(b -> !b.equals("poison") || !skip).distinct().toList();
        if (skip) {
            assertThat(deadLettered(group)).isEqualTo(1);
            assertThat(queue0).containsExactlyInAnyOrder("after-0", "after-1", "after-2");
        } else {
            assertThat(queue0).as("the healed poison first, then the rest in order")
                    .containsExactly("poison", "after-0", "after-1", "after-2");
            assertThat(deadLettered(group)).isZero();
        }
    }

    private static void sendAfter(String topic) {
        for (int i = 0; i < 3; i++) {
            send(topic, 0, "after-" + i);
        }
    }

    @Test
    void shouldReleaseAPausedBeansQueuesToTheOtherInstanceAndTakeSomeBackWhenResumed() throws Exception {
        String topic = TestAdapters.unique("Pause");
        String group = TestAdapters.unique("CG");
        createTopic(topic, QUEUES);
        RecordingEndpointFactory first = RecordingEndpointFactory.accepting();
        RecordingEndpointFactory second = RecordingEndpointFactory.accepting().activationName("other-server/Bean");
        FerryActivationSpec firstSpec = spec(topic, group, "ORDERLY");
        FerryActivationSpec secondSpec = spec(topic, group, "ORDERLY");
        adapter.endpointActivation(first, firstSpec);
        ObjectName firstBean = activationOf(group);
        adapter.endpointActivation(second, secondSpec);
        try {
            BEANS.invoke(firstBean, "pause", new Object[0], new String[0]);
            assertThat((Boolean) BEANS.getAttribute(firstBean, "Paused")).isTrue();
            assertThat((Boolean) BEANS.getAttribute(firstBean, "Consuming")).isFalse();
            for (int queue = 0; queue < 4; queue++) {
                send(topic, queue, "while-paused-" + queue);
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(bodies(second.received()))
                    .as(() -> "second bean: " + attributes(group, "other-server/Bean")).hasSize(4));
            assertThat(first.received()).as("the paused bean took no queue").isEmpty();

            BEANS.invoke(firstBean, "resume", new Object[0], new String[0]);
            assertThat((Boolean) BEANS.getAttribute(firstBean, "Paused")).isFalse();
            // the group divides the queues again: sends to every queue reach the resumed bean too
            await().atMost(WAIT).untilAsserted(() -> {
                for (int queue = 0; queue < 4; queue++) {
                    send(topic, queue, "after-resume-" + queue);
                }
                assertThat(first.received()).isNotEmpty();
            });
        } finally {
            adapter.endpointDeactivation(second, secondSpec);
            adapter.endpointDeactivation(first, firstSpec);
        }
    }

    @Test
    void shouldReplayTheGroupFromATimeAndFromOffsetsWhileItRunsAndLogWhoAsked() throws Exception {
        String topic = TestAdapters.unique("Replay");
        String group = TestAdapters.unique("CG");
        createTopic(topic, QUEUES);
        RecordingEndpointFactory beans = RecordingEndpointFactory.accepting();
        FerryActivationSpec spec = spec(topic, group, "ORDERLY");
        adapter.endpointActivation(beans, spec);
        List<String> logged = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String text = record.getMessage();
                if (record.getParameters() != null) {
                    text = java.text.MessageFormat.format(text, record.getParameters());
                }
                logged.add(text);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger("dev.ferry.ra.inbound");
        log.addHandler(handler);
        try {
            Instant before = Instant.now().minusSeconds(1);
            for (int i = 0; i < 5; i++) {
                send(topic, 0, "m" + i);
            }
            await().atMost(WAIT).until(() -> beans.received().size() == 5);

            Subject operator = new Subject(true, Set.of((Principal) () -> "operator-ann"), Set.of(), Set.of());
            String moved = Subject.doAs(operator, (PrivilegedExceptionAction<String>) () -> (String) invoke(group,
                    "replayFrom", before.toString()));
            assertThat(moved).startsWith(topic + ":").contains(":0=0", ":1=0", ":2=0", ":3=0");
            await().atMost(WAIT).until(() -> beans.received().size() == 10);
            assertThat(bodies(beans.received()).subList(5, 10)).containsExactly("m0", "m1", "m2", "m3", "m4");

            String first = moved.split(", ")[0];
            String brokerName = first.substring(topic.length() + 1, first.lastIndexOf(':'));
            invoke(group, "replayOffsets", brokerName + ":0=3");
            await().atMost(WAIT).until(() -> beans.received().size() == 12);
            assertThat(bodies(beans.received()).subList(10, 12)).containsExactly("m3", "m4");
        } finally {
            log.removeHandler(handler);
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(logged).anySatisfy(line -> assertThat(line).contains("FERRY-RA-0235", "operator-ann",
                "replay group " + group));
        assertThat(logged).anySatisfy(line -> assertThat(line).contains("FERRY-RA-0235",
                "an unauthenticated caller", "from offsets"));
    }

    @Test
    void shouldRefuseABatchSizeForABeanThatTakesOneMessage() {
        FerryActivationSpec spec = spec(TestAdapters.unique("Refused"), TestAdapters.unique("CG"), "CONCURRENTLY");
        spec.setMaxBatchSize(10);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> adapter.endpointActivation(
                RecordingEndpointFactory.accepting(), spec)).hasMessageContaining("FERRY-RA-0221")
                .hasMessageContaining("maxBatchSize 10 is for beans that implement BatchMessageListener");
    }
}
