package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.format.MessageProperties;
import dev.ferry.format.NameRules;
import dev.ferry.format.StoredMessageView;
import dev.ferry.format.SysFlags;
import dev.ferry.format.SystemTopics;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RemotingException;
import dev.ferry.remoting.protocol.RequestCode;
import dev.ferry.remoting.protocol.header.CheckTransactionStateRequestHeader;
import dev.ferry.server.files.JsonFile;
import dev.ferry.server.timer.TimerRouting;
import dev.ferry.store.AppendResult;
import dev.ferry.store.AppendStatus;
import dev.ferry.store.GetMessageResult;
import dev.ferry.store.GetMessageStatus;
import dev.ferry.store.MessageFilterPredicate;
import dev.ferry.store.MessageStore;
import dev.ferry.store.MessageToStore;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Transactional messages. A half message is stored in {@link SystemTopics#TRANSACTION_HALF_TOPIC}
 * queue 0 (its real topic and queue in properties), where no consumer reads it. The producer's
 * END_TRANSACTION commits it (stored again, now in its real queue) or rolls it back; either
 * outcome is recorded as a message in {@link SystemTopics#TRANSACTION_OP_TOPIC} whose body is the
 * half message's commit-log offset and queue offset ({@code "1234:5"}), so outcomes survive
 * restarts with the messages themselves.
 *
 * <p>For a half message still undecided after the transaction timeout, {@link #checkUndecided()}
 * asks a producer of its group (CHECK_TRANSACTION_STATE over a connection the group registered
 * in a heartbeat), once per run, up to the configured number of times; then it discards it. A run counts as a check
 * even when no producer of the group is online to be asked (as in Apache), so the scan never stalls behind one. The
 * scan resumes from the first undecided half message; that offset and the check counts are
 * persisted as {@code transactionCheck.json}. Every half message below that offset is decided, so
 * only decisions at or above it are kept in memory.
 *
 * <p>Decisions ({@link #end}, discards) are serialized on this object's monitor, so a commit the
 * producer sends twice (its own, then an answer to a check) is stored once. A decision never waits for the disk:
 * the committed message and the decision are appended without waiting for their flush, the decision counts as
 * being made until both are durable (a second one is refused meanwhile) and as made once they are.
 */
final class TransactionService {
    private static final System.Logger LOG = System.getLogger(TransactionService.class.getName());
    private static final Duration CHECK_SEND_TIMEOUT = Duration.ofSeconds(3);
    private static final String OP_TAG = "d";
    private static final int BATCH = 32;
    private static final int BATCH_BYTES = 4 * 1024 * 1024;

    /** The persisted scan state. */
    record Stored(long checkOffset, Map<Long, Integer> checks) {
    }

    /** What the producer decided. */
    enum Outcome { COMMIT, ROLLBACK, UNKNOWN }

    private final BrokerConfig config;
    private final MessageStore store;
    private final ProducerGroups producers;
    private final Clock clock;
    /** Whether a half message may go to a producer connection for it to decide: {@link MessageAccess#mayDecide}. */
    private final BiPredicate<RemoteChannel, StoredMessageView> mayDecide;
    private final Supplier<InetSocketAddress> storeHost;
    private final JsonFile<Stored> file;
    private final Set<Long> decided = ConcurrentHashMap.newKeySet();
    /** Decisions written but not yet durable. */
    private final Set<Long> deciding = ConcurrentHashMap.newKeySet();
    private final Map<Long, Integer> checks = new ConcurrentHashMap<>();
    private volatile long checkOffset;
    private final UnsavedChanges unsaved = new UnsavedChanges();
    /** Where a committed message that asks to wait goes first (a delay level, a time), as for a send. */
    private final Function<MessageToStore, TimerRouting.Decision> waits;

    TransactionService(BrokerConfig config, MessageStore store, ProducerGroups producers, Path configDir, Clock clock,
                       Supplier<InetSocketAddress> storeHost, BiPredicate<RemoteChannel, StoredMessageView> mayDecide,
                       Function<MessageToStore, TimerRouting.Decision> waits) {
        this.mayDecide = mayDecide;
        this.waits = waits;
        this.config = config;
        this.store = store;
        this.producers = producers;
        this.clock = clock;
        this.storeHost = storeHost;
        this.file = new JsonFile<>(configDir.resolve("transactionCheck.json"), Stored.class);
        file.read().ifPresent(stored -> {
            checkOffset = stored.checkOffset();
            if (stored.checks() != null) {
                checks.putAll(stored.checks());
            }
        });
        loadDecisions();
    }

    /** Rebuilds the decided set from the op topic. */
    private void loadDecisions() {
        long offset = store.minOffset(SystemTopics.TRANSACTION_OP_TOPIC, 0);
        while (true) {
            GetMessageResult result = store.getMessages(SystemTopics.TRANSACTION_OP_TOPIC, 0, offset, BATCH,
                    BATCH_BYTES, MessageFilterPredicate.ALL);
            if (result.status() != GetMessageStatus.FOUND) {
                return;
            }
            for (StoredMessageView op : result.views()) {
                String[] offsets = new String(op.bodyBytes(), StandardCharsets.UTF_8).trim().split(":");
                try {
                    if (offsets.length == 2 && Long.parseLong(offsets[1]) >= checkOffset) {
                        decided.add(Long.parseLong(offsets[0]));
                    }
                } catch (NumberFormatException e) {
                    LOG.log(System.Logger.Level.WARNING, "ignoring a transaction decision that is not "
                            + "'offset:queueOffset' at commit-log offset {0}", op.physicalOffset());
                }
            }
            offset = result.nextBeginOffset();
        }
    }

    /** The half message a prepared send becomes; only the transaction bits and destination change. */
    static MessageToStore half(MessageToStore prepared) {
        return TransactionHalfStep.half(SendingMessage.of(prepared)).toStore();
    }

    static boolean isPrepared(int sysFlag) {
        return SysFlags.transactionType(sysFlag) == SysFlags.TRANSACTION_PREPARED_TYPE;
    }

    static Outcome outcome(int commitOrRollback) {
        return switch (commitOrRollback) {
            case SysFlags.TRANSACTION_COMMIT_TYPE -> Outcome.COMMIT;
            case SysFlags.TRANSACTION_ROLLBACK_TYPE -> Outcome.ROLLBACK;
            default -> Outcome.UNKNOWN;
        };
    }

    /**
     * The half message at {@code halfOffset} in the commit log and {@code queueOffset} in the half topic's queue, if
     * both name the same one.
     */
    Optional<StoredMessageView> halfMessage(long halfOffset, long queueOffset) {
        // Found through the half topic's queue, which only the broker writes: any offset a client names could point
        // into a message body that looks like a half message.
        return store.queuedMessageAt(SystemTopics.TRANSACTION_HALF_TOPIC, 0, queueOffset, halfOffset);
    }

    /**
     * Applies a producer's decision about the half message at {@code halfOffset}, after Apache's checks: the message
     * must be a half message, of the producer's group, at the queue offset the producer names.
     *
     * @param queueOffset   the half message's offset in the half topic ({@code tranStateTableOffset} on the wire)
     * @param producerGroup the group the deciding producer says it belongs to
     * @return completes, once what was written is durable, with why the decision was not applied (the half message is
     *         then untouched) or {@code null}; the caller's thread never waits for the disk
     */
    synchronized CompletableFuture<String> end(long halfOffset, long queueOffset, String producerGroup,
                                               Outcome outcome) {
        if (outcome == Outcome.UNKNOWN) {
            return CompletableFuture.completedFuture(null); // the check will ask again
        }
        StoredMessageView half = halfMessage(halfOffset, queueOffset).orElse(null);
        if (half == null) {
            return refused(store.messageAt(halfOffset)
                    .filter(m -> SystemTopics.TRANSACTION_HALF_TOPIC.equals(m.topic())).isPresent()
                    ? "The transaction state table offset wrong" : "Find prepared transaction message failed");
        }
        if (!Objects.equals(half.property(MessageProperties.PRODUCER_GROUP), producerGroup)) {
            return refused("The producer group wrong");
        }
        if (decided.contains(halfOffset) || deciding.contains(halfOffset) || half.queueOffset() < checkOffset) {
            return refused("the transaction at " + halfOffset + " is already decided");
        }
        CompletableFuture<AppendResult> real = null;
        if (outcome == Outcome.COMMIT) {
            String realTopic = half.property(MessageProperties.REAL_TOPIC);
            int realQueue = queueId(half.property(MessageProperties.REAL_QUEUE_ID));
            if (NameRules.topicProblem(realTopic) != null || SystemTopics.isBrokerOnly(realTopic) || realQueue < 0) {
                return refused("the half message names no topic and queue it could be delivered to");
            }
            TimerRouting.Decision committed = waits.apply(MessageRewrite.of(half)
                    .property(MessageProperties.REAL_TOPIC, null).property(MessageProperties.REAL_QUEUE_ID, null)
                    .transactionType(SysFlags.TRANSACTION_COMMIT_TYPE)
                    .to(realTopic, realQueue, storeHost.get()));
            if (committed.refused()) {
                return refused(committed.remark());
            }
            real = store.appendAsync(committed.message());
            if (real.isDone() && !real.join().isStored()) {
                return refused("cannot store the committed message: " + real.join().status() + " "
                        + real.join().detail());
            }
        }
        boolean commit = outcome == Outcome.COMMIT;
        String topic = half.property(MessageProperties.REAL_TOPIC);
        long born = half.bornTimestamp();
        CompletableFuture<String> decided = recordDecision(half, real);
        decided.thenAccept(problem -> {
            if (problem == null || problem.startsWith("decided")) {
                listener.decided(topic, commit, born);
            }
        });
        return decided;
    }

    /** Is told of each transaction a producer decided, and of each discarded after its checks ran out. */
    interface DecisionListener {
        DecisionListener NONE = new DecisionListener() {
            @Override
            public void decided(String topic, boolean committed, long bornTimestamp) {
            }

            @Override
            public void discarded(String topic) {
            }
        };

        void decided(String topic, boolean committed, long bornTimestamp);

        void discarded(String topic);
    }

    private volatile DecisionListener listener = DecisionListener.NONE;

    /** Where decisions are told from now on. */
    void listen(DecisionListener value) {
        this.listener = value;
    }

    private static CompletableFuture<String> refused(String why) {
        return CompletableFuture.completedFuture(why);
    }

    private static int queueId(String text) {
        try {
            return text == null ? -1 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * Writes the decision after the committed message, if any, without waiting for the disk. Appends are durable in
     * the order they were made, so the decision's durability covers the committed message's; until then the decision
     * is being made. Called under the monitor.
     */
    private CompletableFuture<String> recordDecision(StoredMessageView half, CompletableFuture<AppendResult> real) {
        long halfOffset = half.physicalOffset();
        MessageToStore op = MessageToStore.builder(SystemTopics.TRANSACTION_OP_TOPIC, 0,
                        (halfOffset + ":" + half.queueOffset()).getBytes(StandardCharsets.UTF_8))
                .properties(Map.of(MessageProperties.TAGS, OP_TAG)).bornTimestamp(clock.millis())
                .storeHost(storeHost.get()).build();
        CompletableFuture<AppendResult> recorded = store.appendAsync(op);
        if (recorded.isDone() && !recorded.join().isStored()) {
            return refused("cannot record the decision: " + recorded.join().status() + " "
                    + recorded.join().detail());
        }
        deciding.add(halfOffset);
        CompletableFuture<AppendResult> both = real == null ? recorded
                : real.thenCombine(recorded, (committed, decision) -> committed.status() != AppendStatus.PUT_OK
                        ? committed : decision);
        return both.handle((result, failure) -> {
            if (failure != null || !result.isStored()) {
                deciding.remove(halfOffset); // not decided after all: the check asks again
                return "cannot record the decision: " + (failure != null ? failure : result.status());
            }
            decided.add(halfOffset);
            deciding.remove(halfOffset);
            checks.remove(halfOffset);
            unsaved.record();
            return result.status() == AppendStatus.PUT_OK ? null
                    : "decided, but the disk did not confirm it in time: " + result.status();
        });
    }

    /** One pass over undecided half messages: ask their producers, or give up on them. */
    void checkUndecided() {
        long offset = checkOffset;
        boolean contiguous = true;
        long now = clock.millis();
        while (true) {
            GetMessageResult result = store.getMessages(SystemTopics.TRANSACTION_HALF_TOPIC, 0, offset, BATCH,
                    BATCH_BYTES, MessageFilterPredicate.ALL);
            if (result.status() == GetMessageStatus.OFFSET_TOO_SMALL) {
                offset = result.minOffset();
                advanceCheckOffset(offset);
                continue;
            }
            if (result.status() != GetMessageStatus.FOUND) {
                return;
            }
            for (StoredMessageView half : result.views()) {
                if (now - half.storeTimestamp() < config.transactionTimeout().toMillis()) {
                    return; // later ones are younger still
                }
                if (deciding.contains(half.physicalOffset())
                        || !decided.contains(half.physicalOffset()) && !checkOrDiscard(half)) {
                    contiguous = false; // being decided counts as decided once durable, next pass
                }
                if (contiguous) {
                    advanceCheckOffset(half.queueOffset() + 1);
                    decided.remove(half.physicalOffset()); // below the check offset: decided for good
                }
            }
            offset = result.nextBeginOffset();
        }
    }

    /**
     * Asks about one half message, or discards it after {@code transactionCheckMax} checks; returns whether it is
     * decided now. A check counts whether or not a producer of its group is online to be asked.
     */
    private boolean checkOrDiscard(StoredMessageView half) {
        int asked = checks.getOrDefault(half.physicalOffset(), 0);
        if (asked >= config.transactionCheckMax()) {
            LOG.log(System.Logger.Level.WARNING, "discarding transaction {0} of group {1}: no decision after {2} "
                    + "checks", NameRules.shown(half.property(MessageProperties.UNIQ_KEY)),
                    NameRules.shown(half.property(MessageProperties.PRODUCER_GROUP)), asked);
            synchronized (this) {
                if (!decided.contains(half.physicalOffset()) && !deciding.contains(half.physicalOffset())) {
                    String topic = half.property(MessageProperties.REAL_TOPIC);
                    recordDecision(half, null).thenAccept(problem -> {
                        if (problem == null || problem.startsWith("decided")) {
                            listener.discarded(topic);
                        }
                    });
                }
                return decided.contains(half.physicalOffset());
            }
        }
        // Counted whether or not a producer can be asked, as Apache counts it: a half message whose producers are
        // gone is discarded after its checks like any other, so the check offset moves on past it and the decisions
        // kept above that offset cannot pile up behind it.
        checks.put(half.physicalOffset(), asked + 1);
        unsaved.record();
        String group = half.property(MessageProperties.PRODUCER_GROUP);
        List<RemoteChannel> channels = producers.channels(group).stream()
                .filter(producer -> mayDecide.test(producer, half)).toList();
        String uniqueKey = half.property(MessageProperties.UNIQ_KEY);
        if (channels.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, "no producer of group {0} to ask about transaction {1}",
                    NameRules.shown(group), NameRules.shown(uniqueKey));
            return false;
        }
        RemoteChannel channel = channels.get(ThreadLocalRandom.current().nextInt(channels.size()));
        RemotingCommand check = RemotingCommand.request(RequestCode.CHECK_TRANSACTION_STATE,
                        new CheckTransactionStateRequestHeader(half.property(MessageProperties.REAL_TOPIC),
                                half.queueOffset(), half.physicalOffset(), uniqueKey, uniqueKey,
                                half.offsetMessageId(), config.brokerName()))
                .bodyParts(List.of(asSent(half))).build();
        try {
            channel.invokeOneway(check, CHECK_SEND_TIMEOUT);
        } catch (RemotingException e) {
            LOG.log(System.Logger.Level.DEBUG, "cannot ask {0} about transaction {1}: {2}", channel,
                    NameRules.shown(uniqueKey), e.getMessage());
        }
        return false;
    }

    private void advanceCheckOffset(long next) {
        if (next != checkOffset) {
            checkOffset = next;
            unsaved.record();
        }
    }

    /** Decisions kept in memory now: those at or above the check offset. */
    int keptDecisions() {
        return decided.size();
    }

    /** The half topic's offset below which every half message is decided. */
    long checkOffset() {
        return checkOffset;
    }

    void persistIfChanged() {
        unsaved.saveIfAny(this::persist);
    }

    void persist() {
        file.write(new Stored(checkOffset, new HashMap<>(checks)));
    }

    /**
     * The half message under the topic and queue its producer sent it to (its REAL_TOPIC and REAL_QUEUE_ID), as
     * Apache's broker shows it in a check-back: the producer's checker reads the message's topic. As stored when
     * those properties are not a topic and queue.
     */
    private static ByteBuffer asSent(StoredMessageView half) {
        String realTopic = half.property(MessageProperties.REAL_TOPIC);
        int realQueue = queueId(half.property(MessageProperties.REAL_QUEUE_ID));
        if (NameRules.topicProblem(realTopic) != null || realQueue < 0) {
            return half.bytes();
        }
        return half.retargeted(realTopic, realQueue);
    }
}
