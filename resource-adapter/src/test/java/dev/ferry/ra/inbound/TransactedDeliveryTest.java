package dev.ferry.ra.inbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryConnectionFactory;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.ra.FakeBootstrapContext;
import dev.ferry.ra.FerryResourceAdapter;
import dev.ferry.ra.RecordingEndpointFactory;
import dev.ferry.ra.TestAdapters;
import jakarta.resource.ResourceException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deliveries to a bean whose container runs onMessage in a transaction (REQUIRED): the message is acknowledged when
 * that transaction commits, delivered again when it rolls back (with or without an exception), and dead-lettered once
 * its retries are spent, as a failing non-transacted delivery is.
 */
@Tag("integration")
class TransactedDeliveryTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    static Path storeDir;
    private static FerryResourceAdapter adapter;
    private static FerryConnectionFactory factory;

    @BeforeAll
    static void start() throws Exception {
        adapter = TestAdapters.embedded(storeDir);
        // retries come back after 200 ms instead of RocketMQ's 10 s
        adapter.setMessageDelayLevel(String.join(" ", Collections.nCopies(18, "200ms")));
        adapter.start(new FakeBootstrapContext());
        factory = TestAdapters.connectionFactory(adapter);
    }

    @AfterAll
    static void stop() {
        adapter.stop();
    }

    private static void send(String topic, String body) {
        try (FerryConnection connection = factory.getConnection()) {
            connection.send(Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build());
        }
    }

    private static List<String> bodies(RecordingEndpointFactory beans) {
        return beans.received().stream().map(m -> new String(m.body(), StandardCharsets.UTF_8)).toList();
    }

    private static FerryActivationSpec activate(RecordingEndpointFactory beans, String topic, String group,
                                                int maxReconsumeTimes) throws Exception {
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, group);
        spec.setMaxReconsumeTimes(maxReconsumeTimes);
        adapter.endpointActivation(beans, spec);
        return spec;
    }

    @Test
    void shouldAcknowledgeAMessageOnlyWhenTheDeliveryTransactionCommits() throws Exception {
        String topic = TestAdapters.unique("TxDelivery");
        AtomicInteger deliveries = new AtomicInteger();
        RecordingEndpointFactory beans = new RecordingEndpointFactory(message -> {
            String body = new String(message.body(), StandardCharsets.UTF_8);
            if (body.equals("rolled-back-twice") && deliveries.incrementAndGet() <= 2) {
                RecordingEndpointFactory.setRollbackOnly(); // no exception: only the transaction says so
            }
        }).transacted();
        FerryActivationSpec spec = activate(beans, topic, TestAdapters.unique("CG"), 16);
        try {
            send(topic, "rolled-back-twice");
            await().atMost(WAIT).until(() -> beans.commits() == 1);
            send(topic, "after");
            await().atMost(WAIT).until(() -> bodies(beans).contains("after"));
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(bodies(beans)).containsExactly("rolled-back-twice", "rolled-back-twice", "rolled-back-twice",
                "after");
        assertThat(beans.received()).extracting(ReceivedMessage::reconsumeTimes).containsExactly(0, 1, 2, 0);
        assertThat(beans.rollbacks()).isEqualTo(2);
        assertThat(beans.commits()).isEqualTo(2);
    }

    @Test
    void shouldAcknowledgeWhenTheBeanThrowsButItsTransactionCommits() throws Exception {
        String topic = TestAdapters.unique("TxAppException");
        RecordingEndpointFactory beans = new RecordingEndpointFactory(message -> {
            if (new String(message.body(), StandardCharsets.UTF_8).equals("application-exception")) {
                throw new Exception("an application exception: the container commits"); // checked: no rollback
            }
        }).transacted();
        FerryActivationSpec spec = activate(beans, topic, TestAdapters.unique("CG"), 16);
        try {
            send(topic, "application-exception");
            await().atMost(WAIT).until(() -> beans.commits() == 1);
            send(topic, "after");
            await().atMost(WAIT).until(() -> bodies(beans).contains("after"));
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(bodies(beans)).containsExactly("application-exception", "after");
    }

    @Test
    void shouldRollBackABeanTheStoppingActivationInterruptsEvenWhenItsInterruptionIsAnApplicationException()
            throws Exception {
        String topic = TestAdapters.unique("TxInterrupted");
        CountDownLatch working = new CountDownLatch(1);
        RecordingEndpointFactory beans = new RecordingEndpointFactory(message -> {
            working.countDown();
            new CountDownLatch(1).await(); // works until the consumer interrupts it; InterruptedException is checked
        }).transacted();
        FerryActivationSpec spec = activate(beans, topic, TestAdapters.unique("CG"), 16);
        send(topic, "long-work");
        assertThat(working.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();

        adapter.endpointDeactivation(beans, spec); // waits for the bean, then interrupts it

        assertThat(beans.rollbacks()).as("the interrupted work does not commit").isEqualTo(1);
        assertThat(beans.commits()).isZero();
    }

    @Test
    void shouldDeadLetterAMessageWhoseTransactionsAlwaysRollBack() throws Exception {
        String topic = TestAdapters.unique("TxDlq");
        String group = TestAdapters.unique("CG");
        RecordingEndpointFactory beans = new RecordingEndpointFactory(message -> {
            throw new IllegalStateException("always fails: the container rolls back");
        }).transacted();
        FerryActivationSpec spec = activate(beans, topic, group, 2);
        try {
            send(topic, "poison");
            await().atMost(WAIT).until(() -> deadLettered(group) == 1);
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(beans.received()).extracting(ReceivedMessage::reconsumeTimes).containsExactly(0, 1, 2);
        assertThat(beans.rollbacks()).isEqualTo(3);
        assertThat(beans.commits()).isZero();
    }

    @Test
    void shouldSkipWhatATransactionalOffsetStoreSaysWasConsumedAndRetryAFailedClaim() throws Exception {
        String topic = TestAdapters.unique("TxClaims");
        createTopic(topic, 1);
        ClaimingOffsetStoreProvider.CONSUMED.clear();
        ClaimingOffsetStoreProvider.CLAIMS.clear();
        ClaimingOffsetStoreProvider.CONSUMED.add(0L); // the first message was consumed by a committed transaction
        ClaimingOffsetStoreProvider.FAILING.add(1L); // the second one's first claim fails
        for (String body : List.of("consumed-before", "claim-fails-once", "fresh")) {
            send(topic, body);
        }
        RecordingEndpointFactory beans = RecordingEndpointFactory.accepting().transacted();
        FerryActivationSpec spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("CG"));
        spec.setOffsetStore("test-claims");
        spec.setConsumeMode("ORDERLY");
        adapter.endpointActivation(beans, spec);
        try {
            await().atMost(WAIT).until(() -> bodies(beans).contains("fresh"));
        } finally {
            adapter.endpointDeactivation(beans, spec);
        }
        assertThat(bodies(beans)).as("the bean never sees what was consumed before")
                .containsExactly("claim-fails-once", "fresh");
        assertThat(ClaimingOffsetStoreProvider.CLAIMS).containsExactly("0:skipped", "1:failed", "1:claimed",
                "2:claimed");
        assertThat(beans.rollbacks()).as("the failed claim voted its transaction down").isEqualTo(1);
    }

    @Test
    void shouldRefuseATransactionalOffsetStoreForABeanOutsideTransactionsOrNotOrderly() throws Exception {
        FerryActivationSpec notTransacted = TestAdapters.spec(adapter, TestAdapters.unique("TxRefused"),
                TestAdapters.unique("CG"));
        notTransacted.setOffsetStore("test-claims");
        notTransacted.setConsumeMode("ORDERLY");
        RecordingEndpointFactory plain = RecordingEndpointFactory.accepting();
        assertThatThrownBy(() -> adapter.endpointActivation(plain, notTransacted))
                .isInstanceOf(ResourceException.class).hasMessageContaining("test-claims")
                .hasMessageContaining("REQUIRED, found not transacted");
        FerryActivationSpec concurrent = TestAdapters.spec(adapter, TestAdapters.unique("TxRefused"),
                TestAdapters.unique("CG"));
        concurrent.setOffsetStore("test-claims");
        RecordingEndpointFactory transacted = RecordingEndpointFactory.accepting().transacted();
        assertThatThrownBy(() -> adapter.endpointActivation(transacted, concurrent))
                .isInstanceOf(ResourceException.class).hasMessageContaining("ORDERLY (found CONCURRENTLY)");
    }

    private static void createTopic(String topic, int queues) throws Exception {
        TestAdapters.createTopic(adapter, topic, queues);
    }

    /** How many messages the group's dead-letter queue holds. */
    private static long deadLettered(String group) throws Exception {
        return TestAdapters.deadLettered(adapter, group);
    }
}
