package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.format.Clock;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.TransactionalOffsetStore;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A consumer the broker's messages are pushed to: it rebalances, long-polls its queues and hands every
 * message to its listener on its own consume threads. Created (and started) by
 * {@link FerryClient#pushConsumer}. Thread-safe.
 *
 * <p>Clustering consumers divide the queues of their group (re-divided every {@code rebalanceInterval}
 * and at once when the broker says the group changed), keep offsets on the broker and also read the
 * group's retry topic; broadcasting consumers read every queue and keep offsets in a local file. Offsets
 * are persisted every {@link ClientConfig#offsetPersistInterval()} and at {@link #close()}.
 */
public final class PushConsumer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PushConsumer.class.getName());

    private final FerryClient client;
    private final PushConsumerConfig config;
    private final ConsumerSettings settings;
    private final Map<String, SubscriptionFilter> filters = new LinkedHashMap<>();
    private final ConsumerRequests requests;
    private final OffsetStore offsets;
    private final RebalanceService rebalance;
    private final PullService pulls;
    private final ConsumeService consume;
    /** The broker locks of an orderly clustering consumer; {@code null} otherwise. */
    private final QueueLocks locks;
    private final List<ScheduledFuture<?>> jobs = new ArrayList<>();
    private final GroupMember member;
    private final PluginWatches plugins;
    /** Writes a trace of each delivery; {@code null} when tracing is off. */
    private final DeliveryTraces traces;
    private volatile boolean started;
    private volatile boolean closed;

    /** The queues paused on a poison message. */
    private final QueuePauses pauses;
    /**
     * Held while queues are divided or their locks renewed: {@link #close()} waits for it, so that no lock a
     * running rebalance takes lands after close released the locks (the broker would keep it for a minute).
     */
    private final Object rebalancing = new Object();

    PushConsumer(FerryClient client, PushConsumerConfig config, BatchDelivery listener, ConsumerEvents events) {
        this.client = client;
        this.config = Objects.requireNonNull(config, "config");
        Objects.requireNonNull(listener, "listener");
        this.pauses = new QueuePauses(config.group(), Objects.requireNonNull(events, "events"),
                client.config().clock());
        this.settings = ConsumerSettings.of(config);
        long subVersion = client.config().clock().millis();
        for (Subscription subscription : config.subscriptions()) {
            filters.put(subscription.topic(), client.plugins().subscriptionFilter(subscription, subVersion));
        }
        if (config.messageModel() == MessageModel.CLUSTERING) {
            filters.put(settings.retryTopic(), new SubscriptionFilter(Subscription.all(settings.retryTopic()),
                    subVersion));
        }
        this.requests = ConsumerRequests.of(client, config.group());
        this.offsets = createOffsetStore();
        AllocateStrategy strategy = client.plugins().allocateStrategy(config.allocateStrategy(),
                config.allocateStrategyConfig());
        boolean locking = config.orderly() && config.messageModel() == MessageModel.CLUSTERING;
        this.traces = config.traceTopic().map(topic -> new DeliveryTraces(TraceWriter.started(client, config.group(),
                "CONSUME", topic), config.group(), client.config().clock(), client.uniqueIds())).orElse(null);
        BatchDelivery consuming = recorded(traces == null ? listener : traces.traced(listener), client.recorder(),
                client.config().clock());
        this.locks = locking ? new QueueLocks(requests, client.config().clock()) : null;
        this.consume = config.orderly()
                ? new OrderlyConsumeService(config, consuming, offsets, requests,
                        locks != null ? locks::holds : queue -> true, client.later(), client.config().clock(),
                        pauses, client.threads())
                : new ConcurrentConsumeService(config, consuming, offsets, requests, client.later(), pauses,
                        client.threads());
        this.pulls = PullService.of(client, settings, filters, offsets, new PullService.Sink() {
            @Override
            public boolean mayPull(ProcessQueue queue) {
                return underThresholds(queue);
            }

            @Override
            public void pulled(ProcessQueue queue, List<ReceivedMessage> messages) {
                consume.submit(queue, messages);
            }
        });
        this.rebalance = new RebalanceService(client.clientId(), settings, strategy, offsets, requests,
                client.routes(), client.heartbeats()::sendToAllBrokers, client.later(), client.config().clock(),
                locks != null ? locks : QueueGate.OPEN, pulls::start);
        this.member = new GroupMember(settings, filters, this::rebalanceSoon, new ConsumerAdmin(
                new ConsumerAdmin.Parts(config, settings, config.orderly(), config.consumeThreads(), filters,
                        rebalance::queues, offsets, client.config().nameServerAddresses(), Optional.of(listener),
                        pulls::start, client.config().clock())));
        this.plugins = new PluginWatches(config.group(), client.later(), this::close);
        plugins.watchStrategy(config.allocateStrategy(), strategy, config.fallbackAllocateStrategy(),
                name -> client.plugins().allocateStrategy(name, PluginConfig.empty()), replacement -> {
                    rebalance.useStrategy(replacement);
                    rebalanceSoon();
                });
        plugins.watch("offset store " + offsetStoreName(), offsets);
        filters.forEach((topic, filter) -> filter.localFilter().ifPresent(local -> plugins.watch(
                "message filter " + local.expressionType() + " of topic " + topic, local)));
    }

    /**
     * The listener, counting each message's outcome (always: two additions a message) and telling the recorder how
     * long its batch took (when metrics are on).
     */
    private BatchDelivery recorded(BatchDelivery delivery, ClientRecorder recorder, Clock clock) {
        String group = config.group();
        int maxReconsumeTimes = config.maxReconsumeTimes() < 0 ? DEFAULT_MAX_RECONSUME_TIMES
                : config.maxReconsumeTimes();
        boolean timed = recorder != ClientRecorder.NONE;
        return batch -> {
            long start = timed ? clock.nanos() : 0;
            BatchDelivery.Outcome outcome = delivery.deliver(batch);
            long took = timed ? clock.nanos() - start : 0;
            for (ReceivedMessage message : batch) {
                boolean success = outcome.failed().isEmpty() || outcome.consumed(message);
                if (success) {
                    delivered.increment();
                } else {
                    failed.increment();
                    // a clustering consumer's failed message goes back to the broker: a retry, or the DLQ at the end
                    (message.reconsumeTimes() >= maxReconsumeTimes ? deadLettered : retried).increment();
                }
                if (timed) {
                    recorder.consumed(group, message.topic(), success, took);
                }
            }
            return outcome;
        };
    }

    /** Apache's default of deliveries before the dead-letter queue, when the consumer sets none. */
    private static final int DEFAULT_MAX_RECONSUME_TIMES = 16;
    private final java.util.concurrent.atomic.LongAdder delivered = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder failed = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder retried = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder deadLettered = new java.util.concurrent.atomic.LongAdder();

    /**
     * What the consumer has done and holds now, for management views.
     *
     * @param delivered    messages its listener took (returned normally) since it started
     * @param failed       messages its listener threw for
     * @param retried      of those, how many go back for another delivery
     * @param deadLettered of those, how many used their last delivery and go to the group's dead-letter queue
     * @param inFlight     messages pulled and not yet consumed
     * @param lag          messages of its queues the broker holds beyond what it committed
     */
    public record Stats(long delivered, long failed, long retried, long deadLettered, long inFlight, long lag) {
    }

    public Stats stats() {
        long inFlight = 0;
        for (ProcessQueue queue : rebalance.queues().values()) {
            inFlight += queue.messageCount();
        }
        long lag = member.admin().lag().stream().mapToLong(ConsumerAdmin.QueueLag::messages).sum();
        return new Stats(delivered.sum(), failed.sum(), retried.sum(), deadLettered.sum(), inFlight, lag);
    }

    private String offsetStoreName() {
        return config.offsetStore().orElse(config.messageModel() == MessageModel.BROADCASTING ? "local-file"
                : "broker");
    }

    private OffsetStore createOffsetStore() {
        String name = offsetStoreName();
        Path directory = client.config().localOffsetDirectory().orElse(null);
        if (directory == null) {
            if (config.messageModel() == MessageModel.BROADCASTING) {
                throw new IllegalArgumentException("invalid client config 'localOffsetDirectory' = 'unset': "
                        + "broadcasting consumer " + config.group() + " keeps its offsets in local files");
            }
            directory = Path.of("ferry-offsets");
        }
        OffsetStore store = client.plugins().offsetStore(name, new OffsetStoreContext(config.group(),
                client.clientId(), config.messageModel(), directory, requests), config.offsetStoreConfig());
        store.load();
        return store;
    }

    /** Joins the group (fails when the client already runs a consumer of it), then starts reading. */
    void start() {
        client.heartbeats().addConsumer(member);
        started = true;
        for (String topic : filters.keySet()) {
            try {
                client.routes().route(topic);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "no route yet for " + topic + ": " + e.getMessage());
            }
        }
        client.heartbeats().sendToAllBrokers();
        long rebalanceMillis = config.rebalanceInterval().toMillis();
        jobs.add(client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(this::rebalanceNow), 0,
                rebalanceMillis, TimeUnit.MILLISECONDS));
        if (locks != null) {
            jobs.add(client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(() -> {
                synchronized (rebalancing) {
                    if (!closed) {
                        locks.renew(rebalance.queues().values());
                    }
                }
            }), QueueLocks.RENEWAL.toMillis(),
                    QueueLocks.RENEWAL.toMillis(), TimeUnit.MILLISECONDS));
        }
        long persistMillis = client.config().offsetPersistInterval().toMillis();
        jobs.add(client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(this::persistOffsets),
                persistMillis, persistMillis, TimeUnit.MILLISECONDS));
    }

    /**
     * The consumer's offset store when it records offsets inside the delivery's transaction
     * ({@link TransactionalOffsetStore}): its listener must then claim each message in that transaction.
     */
    public Optional<TransactionalOffsetStore> transactionalOffsetStore() {
        return offsets instanceof TransactionalOffsetStore transactional ? Optional.of(transactional)
                : Optional.empty();
    }

    /** The queues this consumer paused on a poison message ({@code pauseQueueAfterFailures}), by queue. */
    public List<PausedQueue> pausedQueues() {
        return consume.paused();
    }

    /**
     * Ends the pause of {@code queue}: its poison message is delivered again with its failures forgotten, or with
     * {@code skip} moved to the group's dead-letter queue; the queue's later messages follow in order.
     *
     * @return whether the queue was paused here (false for a queue this consumer does not hold or did not pause)
     * @throws RuntimeException when the skipped message could not be moved; the queue stays paused
     */
    public boolean resumeQueue(MessageQueue queue, boolean skip) {
        ProcessQueue held = rebalance.queues().get(Objects.requireNonNull(queue, "queue"));
        return held != null && consume.resume(held, skip);
    }

    /** The consumer's settings. */
    public PushConsumerConfig config() {
        return config;
    }

    /** The queues this consumer reads now (its group's retry topic included). */
    public Set<MessageQueue> assignedQueues() {
        return new TreeSet<>(rebalance.queues().keySet());
    }

    private void rebalanceNow() {
        synchronized (rebalancing) {
            rebalance.rebalanceRetrying(filters::keySet, () -> !closed);
        }
    }


    private void rebalanceSoon() {
        if (!closed) {
            client.scheduler().execute(() -> FerryClient.runLogged(this::rebalanceNow));
        }
    }

    private void persistOffsets() {
        offsets.persistAll(rebalance.queues().keySet());
    }

    private boolean underThresholds(ProcessQueue queue) {
        return queue.messageCount() < config.pullThresholdForQueue()
                && queue.messageBytes() < config.pullThresholdSizeForQueue()
                && queue.offsetSpan() < config.consumeConcurrentlyMaxSpan();
    }

    /**
     * Stops pulling, lets running listener calls finish (up to 10 s), persists the offsets and leaves the
     * group (the remaining consumers take over its queues).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        plugins.close();
        if (started) {
            consume.beginShutdown(); // before closed is seen: a listener that sees it fails harmlessly
        }
        closed = true;
        if (!started) {
            closeTraces();
            return;
        }
        jobs.forEach(job -> job.cancel(false));
        pulls.stop();
        consume.shutdown(Duration.ofSeconds(10));
        closeTraces(); // after the last delivery's records
        Set<MessageQueue> assigned;
        synchronized (rebalancing) { // a rebalance still running finishes first: its locks are released below
            assigned = Set.copyOf(rebalance.queues().keySet());
            rebalance.dropAll();
        }
        offsets.persistAll(assigned);
        if (locks != null) {
            locks.unlock(rebalance.queues().values());
        }
        client.heartbeats().removeConsumer(config.group());
        client.forget(this);
    }


    private void closeTraces() {
        if (traces != null) {
            traces.close();
        }
    }

    /** The trace writer of this consumer's deliveries, when it traces them. */
    Optional<TraceWriter> traceWriter() {
        return Optional.ofNullable(traces).map(DeliveryTraces::writer);
    }

    /**
     * Whether {@link #close()} has begun. A listener waiting for something of its own (an endpoint, a resource)
     * may give up once it is: its failure then leaves the message uncommitted for the queue's next reader.
     */
    public boolean isClosing() {
        return closed;
    }

    @Override
    public String toString() {
        return "PushConsumer[" + config.group() + "@" + client.clientId() + "]";
    }
}
