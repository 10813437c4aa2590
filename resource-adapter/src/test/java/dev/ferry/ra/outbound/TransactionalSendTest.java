package dev.ferry.ra.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.ferry.api.FerryConnection;
import dev.ferry.api.FerryException;
import dev.ferry.api.InvalidMessageException;
import dev.ferry.api.Message;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.api.Replies;
import dev.ferry.api.SendResult;
import dev.ferry.ra.FakeBootstrapContext;
import dev.ferry.ra.FerryResourceAdapter;
import dev.ferry.ra.RecordingEndpointFactory;
import dev.ferry.ra.TestAdapters;
import dev.ferry.ra.inbound.FerryActivationSpec;
import jakarta.resource.NotSupportedException;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.LocalTransaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sends inside XA and local transactions against the embedded engine: held as half messages until commit, discarded
 * by rollback, found again by recovery after the adapter went away, and never decided by a broker's check-back.
 */
@Tag("integration")
class TransactionalSendTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AtomicInteger XIDS = new AtomicInteger();

    @TempDir
    Path directory;
    private FerryResourceAdapter adapter;
    private String topic;
    private String producerGroup;
    private RecordingEndpointFactory beans;
    private FerryActivationSpec spec;

    @BeforeEach
    void start() throws Exception {
        adapter = startAdapter();
        topic = TestAdapters.unique("TxTopic");
        producerGroup = TestAdapters.unique("TxPG");
    }

    @AfterEach
    void stop() {
        if (beans != null) {
            adapter.endpointDeactivation(beans, spec);
        }
        adapter.stop();
    }

    private FerryResourceAdapter startAdapter() throws Exception {
        Path engineConfig = directory.resolve("engine.properties");
        // the broker asks about undecided transactions every second, and never gives up on one in these tests
        Files.writeString(engineConfig, "transactionCheckInterval=1s\ntransactionCheckMax=1000\n");
        FerryResourceAdapter started = TestAdapters.embedded(directory.resolve("store"));
        started.setEngineConfig(engineConfig.toString());
        started.start(new FakeBootstrapContext());
        return started;
    }

    private FerryManagedConnectionFactory factory() {
        FerryManagedConnectionFactory factory = new FerryManagedConnectionFactory();
        factory.setResourceAdapter(adapter);
        factory.setProducerGroup(producerGroup);
        return factory;
    }

    /** A managed connection of {@code factory}, a handle on it and its XA resource. */
    private record Opened(FerryManagedConnection managed, FerryConnection connection, XAResource xa) {
    }

    private static Opened open(FerryManagedConnectionFactory factory) throws Exception {
        FerryManagedConnection managed = (FerryManagedConnection) factory.createManagedConnection(null, null);
        return new Opened(managed, (FerryConnection) managed.getConnection(null, null), managed.getXAResource());
    }

    private static Xid xid() {
        int n = XIDS.incrementAndGet();
        return new BranchId(4711, ("gtrid-" + n).getBytes(StandardCharsets.UTF_8),
                ("bqual-" + n).getBytes(StandardCharsets.UTF_8));
    }

    private Message message(String body) {
        return Message.builder(topic).body(body.getBytes(StandardCharsets.UTF_8)).build();
    }

    private void consume() throws Exception {
        beans = RecordingEndpointFactory.accepting();
        spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("TxCG"));
        adapter.endpointActivation(beans, spec);
    }

    private List<String> received() {
        return beans.received().stream().map(ReceivedMessage::body)
                .map(body -> new String(body, StandardCharsets.UTF_8)).toList();
    }

    /** Sends a message outside any transaction and waits for it: what was decided before it is visible by then. */
    private void sendMarkerAndAwait(FerryConnection connection, String marker) {
        connection.send(message(marker));
        await().atMost(WAIT).until(() -> received().contains(marker));
    }

    @Test
    void shouldDeliverTheSendsOfABranchOnlyWhenItCommits() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        Xid xid = xid();
        consume();

        xa.start(xid, XAResource.TMNOFLAGS);
        SendResult first = connection.send(message("in-tx-1"));
        connection.send(message("in-tx-2"));
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        sendMarkerAndAwait(connection, "before-commit");
        assertThat(received()).containsExactly("before-commit");

        xa.commit(xid, false);
        await().atMost(WAIT).until(() -> received().size() == 3);
        assertThat(received()).containsExactlyInAnyOrder("before-commit", "in-tx-1", "in-tx-2");
        assertThat(beans.received()).filteredOn(m -> new String(m.body(), StandardCharsets.UTF_8).equals("in-tx-1"))
                .singleElement().satisfies(m -> assertThat(m.msgId()).isEqualTo(first.msgId()));
        assertThat(first.queueOffset()).as("no queue offset before commit").isEqualTo(-1);
    }

    @Test
    void shouldDeliverADelayedSendOfABranchNoEarlierThanItsDelayAfterTheCommit() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        Xid xid = xid();
        AtomicLong arrivedAt = new AtomicLong();
        beans = new RecordingEndpointFactory(m -> {
            if (new String(m.body(), StandardCharsets.UTF_8).equals("delayed-in-tx")) {
                arrivedAt.compareAndSet(0, System.currentTimeMillis());
            }
        });
        spec = TestAdapters.spec(adapter, topic, TestAdapters.unique("TxCG"));
        adapter.endpointActivation(beans, spec);

        xa.start(xid, XAResource.TMNOFLAGS);
        SendResult sent = connection.send(message("delayed-in-tx").toBuilder().deliverAfter(Duration.ofSeconds(3))
                .build());
        xa.end(xid, XAResource.TMSUCCESS);
        assertThat(xa.prepare(xid)).isEqualTo(XAResource.XA_OK);
        long committedAt = System.currentTimeMillis();
        xa.commit(xid, false);

        await().atMost(WAIT).until(() -> arrivedAt.get() != 0);
        assertThat(arrivedAt.get() - committedAt).isGreaterThanOrEqualTo(3000);
        assertThat(beans.received()).singleElement().satisfies(m -> assertThat(m.msgId()).isEqualTo(sent.msgId()));
    }

    @Test
    void shouldPushAReplyAtOnceInsideABranchAndRefuseARequestThere() throws Exception {
        FerryConnection requester = open(factory()).connection();
        Opened replier = open(factory());
        consume();
        sendMarkerAndAwait(requester, "consumer-ready");
        CompletableFuture<ReceivedMessage> reply = CompletableFuture.supplyAsync(() -> requester.request(
                message("question"), WAIT));
        await().atMost(WAIT).until(() -> received().contains("question"));
        ReceivedMessage request = beans.received().stream().filter(m -> new String(m.body(),
                StandardCharsets.UTF_8).equals("question")).findFirst().orElseThrow();

        Xid xid = xid();
        replier.xa().start(xid, XAResource.TMNOFLAGS);
        assertThatThrownBy(() -> replier.connection().request(message("no"), WAIT)).isInstanceOf(FerryException.class)
                .hasMessageContaining("FERRY-RA-0330");
        replier.connection().send(Replies.to(request).body("answer".getBytes(StandardCharsets.UTF_8)).build());
        // pushed before the branch ends, and not taken back by its rollback
        assertThat(new String(reply.get(WAIT.toSeconds(), TimeUnit.SECONDS).body(), StandardCharsets.UTF_8))
                .isEqualTo("answer");
        replier.xa().end(xid, XAResource.TMFAIL);
        replier.xa().rollback(xid);
    }

    @Test
    void shouldDiscardTheSendsOfABranchThatRollsBack() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        consume();

        Xid beforePrepare = xid();
        xa.start(beforePrepare, XAResource.TMNOFLAGS);
        connection.send(message("rolled-back-active"));
        xa.end(beforePrepare, XAResource.TMSUCCESS);
        xa.rollback(beforePrepare);

        Xid afterPrepare = xid();
        xa.start(afterPrepare, XAResource.TMNOFLAGS);
        connection.send(message("rolled-back-prepared"));
        xa.end(afterPrepare, XAResource.TMSUCCESS);
        xa.prepare(afterPrepare);
        xa.rollback(afterPrepare);

        sendMarkerAndAwait(connection, "after-rollbacks");
        assertThat(received()).containsExactly("after-rollbacks");
        assertThat(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).isEmpty();
    }

    @Test
    void shouldCommitInOnePhaseAndAnswerReadOnlyForABranchThatSentNothing() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        consume();

        Xid empty = xid();
        xa.start(empty, XAResource.TMNOFLAGS);
        xa.end(empty, XAResource.TMSUCCESS);
        assertThat(xa.prepare(empty)).isEqualTo(XAResource.XA_RDONLY);

        Xid onePhase = xid();
        xa.start(onePhase, XAResource.TMNOFLAGS);
        connection.sendAsync(message("one-phase")).join();
        xa.end(onePhase, XAResource.TMSUCCESS);
        xa.commit(onePhase, true);
        await().atMost(WAIT).until(() -> received().contains("one-phase"));
    }

    @Test
    void shouldRecoverAPreparedBranchAfterTheAdapterWentAwayAndCommitItOnce() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        Xid prepared = xid();
        xa.start(prepared, XAResource.TMNOFLAGS);
        connection.send(message("recovered-1"));
        connection.send(message("recovered-2"));
        xa.end(prepared, XAResource.TMSUCCESS);
        xa.prepare(prepared);
        Xid active = xid();
        xa.start(active, XAResource.TMNOFLAGS);
        connection.send(message("never-prepared"));

        adapter.stop(); // the process and its memory of the branches are gone; the store keeps the half messages
        adapter = startAdapter();
        FerryManagedConnection afterRestart = (FerryManagedConnection) factory().createManagedConnection(null, null);
        XAResource recovering = afterRestart.getXAResource();
        consume();

        Xid[] inDoubt = recovering.recover(XAResource.TMSTARTRSCAN);
        assertThat(recovering.recover(XAResource.TMENDRSCAN)).isEmpty();
        // the branch that never prepared is listed too: a transaction manager rolls back what it has no record of
        assertThat(inDoubt).containsExactlyInAnyOrder(BranchId.of(prepared), BranchId.of(active));
        recovering.commit(prepared, false);
        recovering.rollback(active);

        FerryConnection after = (FerryConnection) afterRestart.getConnection(null, null);
        sendMarkerAndAwait(after, "after-recovery");
        await().atMost(WAIT).until(() -> received().size() == 3);
        assertThat(received()).containsExactlyInAnyOrder("recovered-1", "recovered-2", "after-recovery");
        assertThat(recovering.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).isEmpty();
        assertThatThrownBy(() -> recovering.commit(prepared, false)).isInstanceOf(XAException.class)
                .satisfies(e -> assertThat(((XAException) e).errorCode).isEqualTo(XAException.XAER_NOTA));
    }

    @Test
    void shouldAnswerTheBrokersCheckBacksUnknownUntilTheTransactionManagerDecides() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        consume();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        connection.send(message("checked"));
        xa.end(xid, XAResource.TMSUCCESS);
        xa.prepare(xid);

        await().atMost(WAIT).until(() -> brokerChecks() >= 3);
        sendMarkerAndAwait(connection, "after-checks");
        assertThat(received()).as("asked three times, still undecided").containsExactly("after-checks");
        assertThat(xa.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN)).containsExactly(BranchId.of(xid));

        xa.commit(xid, false);
        await().atMost(WAIT).until(() -> received().contains("checked"));
    }

    /** How often the broker asked about the one undecided transaction, from its persisted check state. */
    private int brokerChecks() throws IOException {
        try (Stream<Path> files = Files.walk(directory.resolve("store"))) {
            Path state = files.filter(p -> p.getFileName().toString().equals("transactionCheck.json")).findFirst()
                    .orElse(null);
            if (state == null) {
                return 0;
            }
            JsonNode checks = new ObjectMapper().readTree(state.toFile()).path("checks");
            int most = 0;
            for (JsonNode count : checks) {
                most = Math.max(most, count.asInt());
            }
            return most;
        } catch (IOException | UncheckedIOException e) {
            return 0; // a file being replaced right now: asked again
        }
    }

    @Test
    void shouldRollBackABranchWhoseSendFailed() throws Exception {
        Opened opened = open(factory());
        FerryConnection connection = opened.connection();
        XAResource xa = opened.xa();
        consume();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        connection.send(message("sent-before-the-failure"));
        // a topic only brokers write to: the broker refuses the half message
        assertThatThrownBy(() -> connection.send(Message.builder("SCHEDULE_TOPIC_XXXX").body(new byte[] {1}).build()))
                .isInstanceOf(FerryException.class);
        assertThatThrownBy(() -> connection.send(Message.builder(topic).body(new byte[] {1}).delayLevel(3).build()))
                .isInstanceOf(InvalidMessageException.class).hasMessageContaining("cannot be delayed");
        xa.end(xid, XAResource.TMSUCCESS);
        assertThatThrownBy(() -> xa.prepare(xid)).isInstanceOf(XAException.class)
                .satisfies(e -> assertThat(((XAException) e).errorCode).isEqualTo(XAException.XA_RBROLLBACK));
        sendMarkerAndAwait(connection, "after-failed-branch");
        assertThat(received()).containsExactly("after-failed-branch");
    }

    @Test
    void shouldDeliverTheSendsOfALocalTransactionOnlyWhenItCommits() throws Exception {
        FerryManagedConnection managed = (FerryManagedConnection) factory().createManagedConnection(null, null);
        FerryConnection connection = (FerryConnection) managed.getConnection(null, null);
        LocalTransaction local = managed.getLocalTransaction();
        consume();

        local.begin();
        connection.send(message("local-rolled-back"));
        local.rollback();
        local.begin();
        connection.send(message("local-committed"));
        FerryManagedConnection outside = (FerryManagedConnection) factory().createManagedConnection(null, null);
        sendMarkerAndAwait((FerryConnection) outside.getConnection(null, null), "local-marker");
        assertThat(received()).containsExactly("local-marker");
        local.commit();
        await().atMost(WAIT).until(() -> received().contains("local-committed"));
        assertThat(received()).containsExactlyInAnyOrder("local-marker", "local-committed");
        assertThat(managed.getXAResource().recover(XAResource.TMSTARTRSCAN)).isEmpty();
    }

    @Test
    void shouldRefuseXaProtocolErrorsWithTheirCodes() throws Exception {
        FerryManagedConnection managed = (FerryManagedConnection) factory().createManagedConnection(null, null);
        XAResource xa = managed.getXAResource();
        Xid xid = xid();
        xa.start(xid, XAResource.TMNOFLAGS);
        assertThat(code(() -> xa.start(xid, XAResource.TMNOFLAGS))).isEqualTo(XAException.XAER_DUPID);
        assertThat(code(() -> xa.start(xid(), XAResource.TMJOIN))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.prepare(xid()))).isEqualTo(XAException.XAER_NOTA);
        assertThat(code(() -> xa.commit(xid, false))).as("two-phase commit before prepare")
                .isEqualTo(XAException.XAER_PROTO);
        xa.end(xid, XAResource.TMSUCCESS);
        xa.rollback(xid);
        FerryManagedConnection other = (FerryManagedConnection) factory().createManagedConnection(null, null);
        assertThat(xa.isSameRM(other.getXAResource())).as("two factories, two resource managers").isFalse();
    }

    @Test
    void shouldTakePartInNoTransactionWhenTheFactorySaysSo() throws Exception {
        FerryManagedConnectionFactory factory = factory();
        factory.setTransactionSupportLevel("NoTransaction");
        FerryManagedConnection managed = (FerryManagedConnection) factory.createManagedConnection(null, null);
        assertThatThrownBy(managed::getXAResource).isInstanceOf(NotSupportedException.class)
                .hasMessageContaining("NoTransaction");
        assertThatThrownBy(managed::getLocalTransaction).isInstanceOf(NotSupportedException.class);
        factory.setTransactionSupportLevel("Sometimes");
        assertThatThrownBy(factory::validate).isInstanceOf(InvalidPropertyException.class)
                .hasMessageContaining("transactionSupportLevel").hasMessageContaining("Sometimes");
    }

    @Test
    void shouldWriteABranchIntoAPropertyAndReadItBack() {
        BranchId id = new BranchId(0x1234, new byte[] {0, 1, (byte) 0xff}, new byte[] {9});
        assertThat(BranchId.parse(id.toProperty())).contains(id);
        assertThat(BranchId.parse("garbage")).isEmpty();
        assertThat(BranchId.parse("1:zz:00")).isEmpty();
    }

    private interface XaCall {
        void run() throws XAException;
    }

    private static int code(XaCall call) {
        try {
            call.run();
        } catch (XAException e) {
            return e.errorCode;
        }
        throw new AssertionError("no XAException");
    }
}
