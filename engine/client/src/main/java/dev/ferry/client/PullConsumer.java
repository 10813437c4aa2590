package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.api.ReceivedMessage;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.OffsetStoreContext;
import dev.ferry.spi.PluginConfig;
import dev.ferry.spi.ReadOffsetType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * A consumer the application polls (RocketMQ's "lite pull" consumer). It reads either the queues of the
 * topics it {@link #subscribe subscribes} to, divided within its group like a push consumer's, or the
 * queues it is {@link #assign assigned}. It pulls ahead in the background; {@link #poll} hands out what
 * arrived. Offsets of polled messages are committed every {@code autoCommitInterval} when auto-commit is
 * on, and by {@link #commit()}. Created by {@link FerryClient#pullConsumer}. Thread-safe.
 */
public final class PullConsumer implements AutoCloseable {
    private final FerryClient client;
    private final PullConsumerConfig config;
    private final ConsumerSettings settings;
    private final Map<String, SubscriptionFilter> filters = new ConcurrentHashMap<>();
    private final ConsumerRequests requests;
    private final OffsetStore offsets;
    private final RebalanceService rebalance;
    private final PullService pulls;
    private final LinkedBlockingQueue<PulledBatch> arrived = new LinkedBlockingQueue<>();
    /** Batches of paused queues, handed out again after {@link #resume}. */
    private final List<PulledBatch> heldBack = new ArrayList<>();
    private final List<ScheduledFuture<?>> jobs = new ArrayList<>();
    private final PluginWatches plugins;
    /** Writes a trace of each polled message; {@code null} when tracing is off. */
    private final DeliveryTraces traces;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile boolean assigned;
    private volatile boolean closed;

    /** Messages of one pull, waiting to be polled. */
    private record PulledBatch(ProcessQueue queue, int epoch, List<ReceivedMessage> messages) {
    }

    PullConsumer(FerryClient client, PullConsumerConfig config) {
        this.client = client;
        this.config = Objects.requireNonNull(config, "config");
        this.settings = ConsumerSettings.of(config);
        this.requests = ConsumerRequests.of(client, config.group());
        this.offsets = client.plugins().offsetStore("broker", new OffsetStoreContext(config.group(),
                client.clientId(), MessageModel.CLUSTERING, client.config().localOffsetDirectory()
                        .orElse(Path.of("ferry-offsets")), requests), PluginConfig.empty());
        offsets.load();
        AllocateStrategy strategy = client.plugins().allocateStrategy(config.allocateStrategy(),
                config.allocateStrategyConfig());
        this.traces = config.traceTopic().map(topic -> new DeliveryTraces(TraceWriter.started(client, config.group(),
                "CONSUME", topic), config.group(), client.config().clock(), client.uniqueIds())).orElse(null);
        this.pulls = PullService.of(client, settings, filters, offsets, new PullService.Sink() {
            @Override
            public boolean mayPull(ProcessQueue queue) {
                return !queue.isPaused() && queue.messageCount() < config.pullThresholdForQueue();
            }

            @Override
            public void pulled(ProcessQueue queue, List<ReceivedMessage> messages) {
                arrived.add(new PulledBatch(queue, queue.pullPosition().epoch(), messages));
            }
        });
        this.rebalance = new RebalanceService(client.clientId(), settings, strategy, offsets, requests,
                client.routes(), client.heartbeats()::sendToAllBrokers, client.later(), client.config().clock(),
                QueueGate.OPEN, pulls::start);
        this.plugins = new PluginWatches(config.group(), client.later(), this::close);
        plugins.watchStrategy(config.allocateStrategy(), strategy, config.fallbackAllocateStrategy(),
                name -> client.plugins().allocateStrategy(name, PluginConfig.empty()), replacement -> {
                    rebalance.useStrategy(replacement);
                    rebalanceSoon();
                });
        plugins.watch("offset store broker", offsets);
    }

    /** Reads {@code topic}'s messages matching a tag expression, sharing its queues with the group. */
    public void subscribe(String topic, String tagExpression) {
        subscribe(Subscription.tags(topic, tagExpression));
    }

    /** Reads a topic, sharing its queues with the group. */
    public synchronized void subscribe(Subscription subscription) {
        if (assigned) {
            throw new IllegalStateException("consumer " + config.group() + " was assigned queues; it cannot subscribe");
        }
        SubscriptionFilter filter = client.plugins().subscriptionFilter(subscription, client.config().clock().millis());
        filters.put(subscription.topic(), filter);
        filter.localFilter().ifPresent(local -> plugins.watch("message filter " + local.expressionType()
                + " of topic " + subscription.topic(), local));
        start();
        client.routes().route(subscription.topic());
        client.heartbeats().sendToAllBrokers();
        rebalanceSoon();
    }

    /** Reads exactly {@code queues} (every message), without group rebalancing. */
    public synchronized void assign(Collection<MessageQueue> queues) {
        if (!assigned && !filters.isEmpty()) {
            throw new IllegalStateException("consumer " + config.group() + " subscribed; it cannot be assigned");
        }
        assigned = true;
        Map<String, List<MessageQueue>> byTopic = queues.stream()
                .collect(Collectors.groupingBy(MessageQueue::topic));
        for (String topic : byTopic.keySet()) {
            filters.putIfAbsent(topic, new SubscriptionFilter(Subscription.all(topic),
                    client.config().clock().millis()));
            client.routes().route(topic);
        }
        start();
        for (String topic : filters.keySet()) {
            rebalance.apply(topic, byTopic.getOrDefault(topic, List.of()));
        }
    }

    private void start() {
        if (started.get()) {
            return;
        }
        client.heartbeats().addConsumer(new GroupMember(settings, filters, this::rebalanceSoon, new ConsumerAdmin(
                new ConsumerAdmin.Parts(config, settings, false, 0, filters, rebalance::queues, offsets,
                        client.config().nameServerAddresses(), Optional.empty(), pulls::start,
                        client.config().clock()))));
        started.set(true);
        if (!assigned) {
            long millis = config.rebalanceInterval().toMillis();
            jobs.add(client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(this::rebalanceNow),
                    millis, millis, TimeUnit.MILLISECONDS));
        }
        if (config.autoCommit()) {
            long millis = config.autoCommitInterval().toMillis();
            jobs.add(client.scheduler().scheduleWithFixedDelay(() -> FerryClient.runLogged(this::commit),
                    millis, millis, TimeUnit.MILLISECONDS));
        }
    }

    private void rebalanceSoon() {
        if (!closed && !assigned) {
            client.scheduler().execute(() -> FerryClient.runLogged(this::rebalanceNow));
        }
    }

    private void rebalanceNow() {
        rebalance.rebalanceRetrying(filters::keySet, () -> !closed && !assigned);
    }

    /**
     * Waits up to {@code timeout} for messages and returns those of one or more pulls (possibly none).
     * Returned messages count as consumed: their offsets are committed by the next (auto-)commit.
     */
    public List<ReceivedMessage> poll(Duration timeout) {
        long deadline = client.config().clock().nanos() + timeout.toNanos();
        List<ReceivedMessage> out = new ArrayList<>();
        try {
            while (out.isEmpty()) {
                long left = deadline - client.config().clock().nanos();
                PulledBatch first = left <= 0 ? arrived.poll() : arrived.poll(left, TimeUnit.NANOSECONDS);
                if (first == null) {
                    break;
                }
                List<PulledBatch> batches = new ArrayList<>(List.of(first));
                arrived.drainTo(batches);
                batches.forEach(batch -> take(batch, out));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (traces != null && !out.isEmpty()) {
            traces.polled(out);
        }
        return out;
    }

    private void take(PulledBatch batch, List<ReceivedMessage> out) {
        ProcessQueue queue = batch.queue();
        if (queue.isDropped() || rebalance.queues().get(queue.queue()) != queue
                || batch.epoch() != queue.pullPosition().epoch()) {
            return; // no longer ours, or pulled before a seek
        }
        if (queue.isPaused()) {
            synchronized (heldBack) {
                heldBack.add(batch);
            }
            return;
        }
        queue.consumed(batch.messages());
        out.addAll(batch.messages());
    }

    /** Makes the next poll of {@code queue} start at {@code offset}; the committed offset moves there too. */
    public void seek(MessageQueue queue, long offset) {
        ProcessQueue processQueue = requireAssigned(queue);
        processQueue.seek(offset);
        offsets.update(queue, offset, false);
        pulls.start(processQueue);
    }

    /** Stops pulling {@code queues} until {@link #resume}. */
    public void pause(Collection<MessageQueue> queues) {
        queues.forEach(q -> requireAssigned(q).pause(true));
    }

    /** Pulls {@code queues} again. */
    public void resume(Collection<MessageQueue> queues) {
        queues.forEach(q -> requireAssigned(q).pause(false));
        synchronized (heldBack) {
            heldBack.removeIf(batch -> {
                if (batch.queue().isPaused()) {
                    return false;
                }
                arrived.add(batch);
                return true;
            });
        }
    }

    /** Commits the offsets of everything polled so far and persists them now. */
    public void commit() {
        for (ProcessQueue queue : rebalance.queues().values()) {
            if (!queue.isDropped()) {
                offsets.update(queue.queue(), queue.committableOffset(), false);
            }
        }
        offsets.persistAll(rebalance.queues().keySet());
    }

    /** The committed offset of {@code queue} as this consumer knows it. */
    public OptionalLong committed(MessageQueue queue) {
        long offset = offsets.read(queue, ReadOffsetType.MEMORY_FIRST_THEN_STORE);
        return offset >= 0 ? OptionalLong.of(offset) : OptionalLong.empty();
    }

    /** The queues this consumer reads now. */
    public Set<MessageQueue> assignment() {
        return new TreeSet<>(rebalance.queues().keySet());
    }

    private ProcessQueue requireAssigned(MessageQueue queue) {
        ProcessQueue processQueue = rebalance.queues().get(queue);
        if (processQueue == null) {
            throw new IllegalStateException(queue + " is not assigned to consumer " + config.group());
        }
        return processQueue;
    }

    /** Stops pulling, commits (when auto-commit is on) and leaves the group. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        plugins.close();
        jobs.forEach(job -> job.cancel(false));
        pulls.stop();
        if (config.autoCommit()) {
            commit();
        }
        rebalance.dropAll();
        if (traces != null) {
            traces.close(); // after the last poll's records
        }
        if (started.get()) {
            client.heartbeats().removeConsumer(config.group());
        }
        client.forget(this);
    }
}
