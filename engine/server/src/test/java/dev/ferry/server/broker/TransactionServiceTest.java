package dev.ferry.server.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.ferry.format.ManualClock;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.store.AppendResult;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.FlushMode;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import dev.ferry.store.StoreConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionServiceTest {
    private static final InetSocketAddress HOST = new InetSocketAddress("127.0.0.1", 10911);

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(1_700_000_000_000L);
    private final ProducerGroups producers = new ProducerGroups(clock, 100);
    private final List<RemotingCommand> checks = new CopyOnWriteArrayList<>();

    private MessageStore open() {
        return MessageStore.builder(StoreConfig.builder(dir.resolve("store")).commitLogSegmentSize(1024 * 1024)
                .build()).clock(clock).open();
    }

    private TransactionService service(MessageStore store) {
        BrokerConfig config = BrokerConfig.builder(dir).transactionCheckInterval(Duration.ofSeconds(30))
                .transactionTimeout(Duration.ofSeconds(6)).transactionCheckMax(2).build();
        return new TransactionService(config, store, producers, dir.resolve("config"), clock, () -> HOST,
                (producer, half) -> true, TimerRouting.Decision::asIs);
    }

    /** A half message as END_TRANSACTION names it. */
    private record Half(long offset, long queueOffset) {
    }

    private static Half half(MessageStore store, String key) {
        MessageToStore prepared = MessageToStore.builder("TopicTx", 1, key.getBytes(StandardCharsets.UTF_8))
                .properties(Map.of("KEYS", key, "UNIQ_KEY", key, "PGROUP", "PG", "TRAN_MSG", "true"))
                .sysFlag(SysFlags.TRANSACTION_PREPARED_TYPE).storeHost(HOST).build();
        AppendResult result = store.append(TransactionService.half(prepared));
        assertThat(result.isStored()).isTrue();
        return new Half(result.physicalOffset(), result.queueOffset());
    }

    private static String end(TransactionService transactions, Half half, TransactionService.Outcome outcome) {
        return transactions.end(half.offset(), half.queueOffset(), "PG", outcome).join();
    }

    private static void awaitQueue(MessageStore store, String topic, int queueId, long max) {
        await().atMost(Duration.ofSeconds(5)).until(() -> store.nextOffset(topic, queueId) == max);
    }

    private static List<String> keys(MessageStore store) {
        return store.getMessages("TopicTx", 1, 0, 32, 1 << 20, MessageFilterPredicate.ALL).views().stream()
                .map(m -> m.property("KEYS")).toList();
    }

    @Test
    void shouldStoreACommittedMessageOnceInItsRealQueueAndNeverARolledBackOne() {
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            Half commit = half(store, "commit");
            Half rollback = half(store, "rollback");
            assertThat(end(transactions, commit, TransactionService.Outcome.COMMIT)).isNull();
            assertThat(end(transactions, commit, TransactionService.Outcome.COMMIT)).contains("already decided");
            assertThat(end(transactions, rollback, TransactionService.Outcome.ROLLBACK)).isNull();
            assertThat(end(transactions, rollback, TransactionService.Outcome.COMMIT)).contains("already decided");
            assertThat(end(transactions, new Half(12345, 0), TransactionService.Outcome.COMMIT))
                    .isEqualTo("Find prepared transaction message failed");
            awaitQueue(store, "TopicTx", 1, 1);
            assertThat(keys(store)).containsExactly("commit");
            assertThat(store.getMessages("TopicTx", 1, 0, 1, 1 << 20, MessageFilterPredicate.ALL).views().get(0)
                    .property("REAL_TOPIC")).isNull();
        }
    }

    @Test
    void shouldFindAHalfMessageDecidedTheMomentItWasStoredWhileOthersAreStored() throws Exception {
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            int threads = 4;
            int each = 2_000;
            List<String> refusals = new CopyOnWriteArrayList<>();
            List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                producers.add(new Thread(() -> {
                    for (int i = 0; i < each && refusals.isEmpty(); i++) {
                        MessageToStore prepared = MessageToStore.builder("TopicTx", 1, new byte[64])
                                .properties(Map.of("UNIQ_KEY", id + "-" + i, "PGROUP", "PG", "TRAN_MSG", "true"))
                                .sysFlag(SysFlags.TRANSACTION_PREPARED_TYPE).storeHost(HOST).build();
                        AppendResult stored = store.appendAsync(TransactionService.half(prepared)).join();
                        String refusal = transactions.end(stored.physicalOffset(), stored.queueOffset(), "PG",
                                TransactionService.Outcome.COMMIT).join();
                        if (refusal != null) {
                            refusals.add(id + "-" + i + ": " + refusal);
                        }
                    }
                }));
            }
            producers.forEach(Thread::start);
            for (Thread producer : producers) {
                producer.join();
            }
            assertThat(refusals).isEmpty();
        }
    }

    @Test
    void shouldNeverWaitForTheDiskUnderSyncFlushAndAnswerOnceTheDecisionIsDurable() {
        Half durable;
        try (MessageStore store = open()) {
            durable = half(store, "held");
        }
        HeldForces forces = new HeldForces();
        try (MessageStore store = MessageStore.builder(StoreConfig.builder(dir.resolve("store"))
                .commitLogSegmentSize(1024 * 1024).flushMode(FlushMode.SYNC_FLUSH)
                .syncFlushTimeout(Duration.ofMinutes(5)).build()).clock(clock).threadFactory(forces).open()) {
            try {
                TransactionService transactions = service(store);

                CompletableFuture<String> committed = assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                        transactions.end(durable.offset(), durable.queueOffset(), "PG",
                                TransactionService.Outcome.COMMIT));
                CompletableFuture<String> again = transactions.end(durable.offset(), durable.queueOffset(), "PG",
                        TransactionService.Outcome.COMMIT);

                assertThat(committed).as("waits for the held force").isNotDone();
                assertThat(again.join()).as("a second decision while the first is made").contains("already decided");
                forces.release();
                assertThat(committed.orTimeout(30, TimeUnit.SECONDS).join()).isNull();
                awaitQueue(store, "TopicTx", 1, 1);
                assertThat(keys(store)).containsExactly("held");
            } finally {
                forces.release(); // before the store closes, which waits for its loops
            }
        }
    }

    @Test
    void shouldRefuseADecisionFromAnotherGroupOrForAnotherQueueOffsetAndLeaveTheHalfMessageUndecided() {
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            Half half = half(store, "theirs");

            assertThat(transactions.end(half.offset(), half.queueOffset(), "OTHER_GROUP",
                    TransactionService.Outcome.COMMIT).join()).isEqualTo("The producer group wrong");
            assertThat(transactions.end(half.offset(), half.queueOffset() + 7, "PG",
                    TransactionService.Outcome.COMMIT).join()).isEqualTo("The transaction state table offset wrong");
            assertThat(transactions.end(half.offset() + 1, half.queueOffset(), "PG",
                    TransactionService.Outcome.COMMIT).join()).isEqualTo("Find prepared transaction message failed");

            assertThat(end(transactions, half, TransactionService.Outcome.COMMIT)).as("still undecided").isNull();
            awaitQueue(store, "TopicTx", 1, 1);
        }
    }

    @Test
    void shouldNotTakeAHalfMessageForgedInsideAnotherMessagesBody() {
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            Half real = half(store, "real");
            // a body that is, byte for byte, a whole half message claiming to be stored where that body lies
            long carrierOffset = store.commitLogEndOffset();
            long insideTheBody = carrierOffset + 88; // an IPv4 entry's body starts 88 bytes in
            java.nio.ByteBuffer forged = java.nio.ByteBuffer.allocate(store.messageAt(real.offset()).orElseThrow()
                    .totalSize());
            forged.put(store.messageAt(real.offset()).orElseThrow().bytes());
            forged.putLong(28, insideTheBody);
            AppendResult carrier = store.append(MessageToStore.builder("TopicCarrier", 0, forged.array())
                    .storeHost(HOST).build());
            assertThat(carrier.physicalOffset()).isEqualTo(carrierOffset);
            assertThat(store.messageAt(insideTheBody)).as("the forgery looks like a half message").get()
                    .extracting(StoredMessageView::topic).isEqualTo(SystemTopics.TRANSACTION_HALF_TOPIC);

            assertThat(transactions.end(insideTheBody, real.queueOffset(), "PG",
                    TransactionService.Outcome.COMMIT).join())
                    .isEqualTo("The transaction state table offset wrong");
            awaitQueue(store, "TopicCarrier", 0, 1);
            assertThat(transactions.end(insideTheBody, real.queueOffset(), "PG",
                    TransactionService.Outcome.COMMIT).join())
                    .isEqualTo("The transaction state table offset wrong");
            assertThat(end(transactions, real, TransactionService.Outcome.ROLLBACK)).as("still undecided").isNull();
        }
    }

    @Test
    void shouldAskAProducerAfterTheTimeoutOncePerRunThenDiscardAfterTheLastCheck() {
        producers.heartbeat("PG", "producer-1", new FakeChannel("producer", checks));
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            Half pending = half(store, "pending");
            awaitQueue(store, SystemTopics.TRANSACTION_HALF_TOPIC, 0, 1);

            clock.advance(Duration.ofMillis(5_999));
            transactions.checkUndecided();
            assertThat(checks).as("too young to ask about").isEmpty();
            clock.advance(Duration.ofMillis(1));
            transactions.checkUndecided();
            assertThat(checks).hasSize(1);
            assertThat(checks.get(0).code()).isEqualTo(RequestCode.CHECK_TRANSACTION_STATE);
            assertThat(checks.get(0).extField("commitLogOffset")).isEqualTo(Long.toString(pending.offset()));
            transactions.checkUndecided();
            transactions.checkUndecided(); // third run: two checks were the most, so it is discarded
            transactions.checkUndecided();
            assertThat(checks).hasSize(2);
            assertThat(end(transactions, pending, TransactionService.Outcome.COMMIT)).contains("already decided");
        }
    }

    @Test
    void shouldRememberDecisionsAcrossARestart() {
        Half commit;
        Half rollback;
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            commit = half(store, "commit");
            rollback = half(store, "rollback");
            half(store, "pending");
            end(transactions, commit, TransactionService.Outcome.COMMIT);
            end(transactions, rollback, TransactionService.Outcome.ROLLBACK);
            awaitQueue(store, SystemTopics.TRANSACTION_OP_TOPIC, 0, 2);
            transactions.persist();
        }
        producers.heartbeat("PG", "producer-1", new FakeChannel("producer", checks));
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            assertThat(end(transactions, commit, TransactionService.Outcome.COMMIT)).contains("already decided");
            assertThat(end(transactions, rollback, TransactionService.Outcome.COMMIT)).contains("already decided");
            clock.advance(Duration.ofSeconds(6));
            transactions.checkUndecided();
            assertThat(checks).extracting(c -> c.extField("msgId")).containsExactly("pending");
        }
    }

    @Test
    void shouldDiscardAHalfMessageWhoseProducersAreOfflineAfterItsChecksAndKeepNoDecisionsBehindIt() {
        try (MessageStore store = open()) {
            TransactionService transactions = service(store);
            // prepared by a producer that then went away: nobody of its group is online to be asked
            Half orphan = half(store, "orphan");
            int later = 30;
            for (int i = 0; i < later; i++) {
                end(transactions, half(store, "later-" + i), TransactionService.Outcome.COMMIT);
            }
            awaitQueue(store, SystemTopics.TRANSACTION_OP_TOPIC, 0, later);
            assertThat(transactions.keptDecisions()).as("decided above the unchecked one").isEqualTo(later);

            clock.advance(Duration.ofSeconds(6));
            transactions.checkUndecided();
            transactions.checkUndecided(); // two checks, the most, both without a producer to ask
            assertThat(transactions.checkOffset()).as("held by the undecided one").isZero();
            transactions.checkUndecided(); // discarded now
            awaitQueue(store, SystemTopics.TRANSACTION_OP_TOPIC, 0, later + 1);
            transactions.checkUndecided();

            assertThat(transactions.checkOffset()).isEqualTo(later + 1);
            assertThat(transactions.keptDecisions()).as("nothing kept below the check offset").isZero();
            assertThat(end(transactions, orphan, TransactionService.Outcome.COMMIT)).contains("already decided");
            awaitQueue(store, "TopicTx", 1, later);
            assertThat(keys(store)).as("the discarded one was never delivered").hasSize(later)
                    .doesNotContain("orphan");

            // a producer online again is asked about a new one as before
            producers.heartbeat("PG", "producer-1", new FakeChannel("producer", checks));
            half(store, "next");
            clock.advance(Duration.ofSeconds(6));
            transactions.checkUndecided();
            assertThat(checks).extracting(c -> c.extField("msgId")).containsExactly("next");
        }
    }
}
