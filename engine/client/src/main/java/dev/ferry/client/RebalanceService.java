package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.format.SystemTopics;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Decides which queues one consumer reads and keeps a {@link ProcessQueue} for each: for clustering the
 * topic's readable queues and the group's live client ids, both sorted, go through the allocate strategy
 * plugin; broadcasting takes every queue. A queue that goes away is dropped (no more pulls, no more offset
 * updates) <em>before</em> its offset is persisted and forgotten; a new queue starts at its committed
 * offset, or where {@link ConsumeFromWhere} says when the group has none.
 *
 * <p>{@link #rebalance} runs on the client's scheduler, one call at a time (synchronized); the queue map
 * is concurrent so other threads may read it.
 */
final class RebalanceService {
    private static final System.Logger LOG = System.getLogger(RebalanceService.class.getName());
    private static final Duration DEFAULT_TIMESTAMP_LOOKBACK = Duration.ofMinutes(30);
    private static final Duration UNBALANCED_RETRY = Duration.ofSeconds(1);

    private final FerryClient client;
    private final ConsumerSettings settings;
    private final AllocateStrategy strategy;
    private final OffsetStore offsets;
    private final ConsumerRequests requests;
    private final Consumer<ProcessQueue> onAdded;
    private final QueueGate gate;
    private final Map<MessageQueue, ProcessQueue> queues = new ConcurrentHashMap<>();
    private final AtomicBoolean retryScheduled = new AtomicBoolean();

    RebalanceService(FerryClient client, ConsumerSettings settings, AllocateStrategy strategy, OffsetStore offsets,
                     ConsumerRequests requests, QueueGate gate, Consumer<ProcessQueue> onAdded) {
        this.client = client;
        this.settings = settings;
        this.strategy = strategy;
        this.offsets = offsets;
        this.requests = requests;
        this.onAdded = onAdded;
        this.gate = gate;
    }

    /** The queues this consumer reads now. */
    Map<MessageQueue, ProcessQueue> queues() {
        return queues;
    }

    /**
     * Rebalances {@code topics} now and, while some topic is not balanced (no route yet, a broker did not
     * answer), once more a second later, as long as {@code active} says so. For the client's scheduler.
     */
    void rebalanceRetrying(Supplier<? extends Collection<String>> topics, BooleanSupplier active) {
        if (!active.getAsBoolean()) {
            return;
        }
        if (!rebalance(topics.get()) && retryScheduled.compareAndSet(false, true)) {
            try {
                client.scheduler().schedule(() -> {
                    retryScheduled.set(false);
                    FerryClient.runLogged(() -> rebalanceRetrying(topics, active));
                }, UNBALANCED_RETRY.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                retryScheduled.set(false); // the client is closing
            }
        }
    }

    /**
     * Re-divides the queues of {@code topics} and drops queues of topics no longer read.
     *
     * @return whether every topic was balanced; when not, the caller retries soon
     */
    synchronized boolean rebalance(Collection<String> topics) {
        boolean balanced = true;
        for (String topic : topics) {
            try {
                Optional<List<MessageQueue>> mine = allocate(topic);
                if (mine.isEmpty()) {
                    balanced = false;
                    continue;
                }
                balanced &= apply(topic, mine.get());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "rebalance of " + topic + " for group " + settings.group() + " failed: "
                        + e.getMessage());
                balanced = false;
            }
        }
        Set<String> read = new HashSet<>(topics);
        for (MessageQueue queue : new ArrayList<>(queues.keySet())) {
            if (!read.contains(queue.topic())) {
                remove(queue);
            }
        }
        return balanced;
    }

    /** This consumer's share of the topic's queues; empty when it cannot be known now. */
    private Optional<List<MessageQueue>> allocate(String topic) {
        Optional<TopicRoute> route = client.routes().route(topic);
        if (route.isEmpty() || route.get().readQueues().isEmpty()) {
            client.routes().refresh(topic);
            route = client.routes().route(topic);
        }
        if (route.isEmpty() || route.get().readQueues().isEmpty()) {
            LOG.log(Level.DEBUG, "no route yet for topic " + topic);
            return Optional.empty();
        }
        List<MessageQueue> all = route.get().readQueues();
        if (settings.messageModel() == MessageModel.BROADCASTING) {
            return Optional.of(all);
        }
        String broker = route.get().brokerAddresses().keySet().iterator().next();
        List<String> ids = new ArrayList<>(requests.consumerIds(broker));
        if (!ids.contains(client.clientId())) {
            // The broker has not had this consumer's heartbeat yet (a broker new to this client): send it,
            // and allocate on the retry, rather than drop every queue because we are not in the list.
            client.heartbeats().sendToAllBrokers();
            return Optional.empty();
        }
        ids.sort(null);
        try {
            return Optional.of(strategy.allocate(settings.group(), client.clientId(), all, ids));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "allocate strategy " + strategy.name() + " failed for " + topic
                    + "; keeping the current queues", e);
            return Optional.empty();
        }
    }

    /**
     * Makes the queues of {@code topic} read exactly {@code mine} (also how a pull consumer assigns).
     *
     * @return whether every new queue could be started
     */
    synchronized boolean apply(String topic, Collection<MessageQueue> mine) {
        Set<MessageQueue> wanted = new HashSet<>(mine);
        for (MessageQueue queue : new ArrayList<>(queues.keySet())) {
            if (queue.topic().equals(topic) && !wanted.contains(queue)) {
                remove(queue);
            }
        }
        boolean complete = true;
        for (MessageQueue queue : new TreeSet<>(wanted)) {
            if (queues.containsKey(queue)) {
                continue;
            }
            if (!gate.admit(queue)) {
                complete = false;
                continue;
            }
            // Read the start only now: an orderly queue's previous owner persisted its offset before unlocking.
            long start = startOffset(queue);
            if (start < 0) {
                complete = false;
                continue;
            }
            ProcessQueue processQueue = new ProcessQueue(queue, start);
            gate.opened(processQueue);
            offsets.update(queue, start, false);
            queues.put(queue, processQueue);
            LOG.log(Level.DEBUG, client.clientId() + " reads " + queue + " from offset " + start);
            onAdded.accept(processQueue);
        }
        return complete;
    }

    /** Stops reading {@code queue}: drop first, so no consume thread moves its offset, then persist and forget. */
    private void remove(MessageQueue queue) {
        ProcessQueue processQueue = queues.remove(queue);
        if (processQueue == null) {
            return;
        }
        processQueue.drop();
        gate.release(processQueue, () -> offsets.persist(queue));
        offsets.remove(queue);
        LOG.log(Level.DEBUG, client.clientId() + " no longer reads " + queue);
    }

    /** Drops every queue without persisting (shutdown persists all offsets itself). */
    void dropAll() {
        queues.values().forEach(ProcessQueue::drop);
    }

    /** Where a newly assigned queue starts; negative when it cannot be known now. */
    private long startOffset(MessageQueue queue) {
        long stored = offsets.read(queue, ReadOffsetType.READ_FROM_STORE);
        if (stored >= 0) {
            return stored;
        }
        if (stored != OffsetStore.NO_OFFSET) {
            return -1;
        }
        boolean retryTopic = SystemTopics.isRetryTopic(queue.topic());
        try {
            return switch (settings.consumeFromWhere()) {
                case FIRST_OFFSET -> 0L;
                case LAST_OFFSET -> retryTopic ? 0L : requests.nextOffset(queue);
                case TIMESTAMP -> retryTopic ? requests.nextOffset(queue)
                        : requests.searchOffset(queue, consumeTimestamp().toEpochMilli());
            };
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot find where to start " + queue + ": " + e.getMessage());
            return -1;
        }
    }

    private Instant consumeTimestamp() {
        return Instant.EPOCH.equals(settings.consumeTimestamp())
                ? client.config().clock().instant().minus(DEFAULT_TIMESTAMP_LOOKBACK) : settings.consumeTimestamp();
    }
}
