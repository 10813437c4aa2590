package dev.ferry.client;

import dev.ferry.api.MessageModel;
import dev.ferry.api.MessageQueue;
import dev.ferry.format.Clock;
import dev.ferry.format.SystemTopics;
import dev.ferry.spi.AllocateStrategy;
import dev.ferry.spi.OffsetStore;
import dev.ferry.spi.ReadOffsetType;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Decides which queues one consumer reads and keeps a {@link ProcessQueue} for each: for clustering the
 * topic's readable queues and the group's live client ids, both sorted, go through the allocate strategy
 * plugin; broadcasting takes every queue. A queue that goes away is dropped (no more pulls, no more offset
 * updates) <em>before</em> its offset is persisted and forgotten; a new queue starts at its committed
 * offset, or where {@link ConsumeFromWhere} says when the group has none.
 *
 * <p>Nothing that talks to a broker, a name server, the offset store or the queue gate runs under the service's
 * lock: the lock covers only the changes of the queue map, which any thread may read. A rebalance decides, then
 * takes queues out under the lock, releases them outside it, starts new ones outside it (each marked as starting,
 * so no one starts it twice) and puts each in under the lock if it is still wanted. Rebalances run on the
 * client's scheduler, assignments on a pull consumer's caller.
 */
final class RebalanceService {
    private static final System.Logger LOG = System.getLogger(RebalanceService.class.getName());
    private static final Duration DEFAULT_TIMESTAMP_LOOKBACK = Duration.ofMinutes(30);
    private static final Duration UNBALANCED_RETRY = Duration.ofSeconds(1);

    private final String clientId;
    private final ConsumerSettings settings;
    /** Replaced only when the configured strategy's plugin goes away and the consumer has a fallback. */
    private volatile AllocateStrategy strategy;
    private final OffsetStore offsets;
    private final QueueQueries queries;
    private final Routes routes;
    private final Runnable sendHeartbeats;
    private final Later later;
    private final Clock clock;
    /** The reason the last rebalance failed, so that a failure repeated every second is logged once. */
    private volatile String lastFailure;
    private final Consumer<ProcessQueue> onAdded;
    private final QueueGate gate;
    private final Map<MessageQueue, ProcessQueue> queues = new ConcurrentHashMap<>();
    private final AtomicBoolean retryScheduled = new AtomicBoolean();
    private final Object lock = new Object();
    /** The queues each topic should have after the latest decision. Guarded by {@link #lock}. */
    private final Map<String, Set<MessageQueue>> wanted = new HashMap<>();
    /** Queues being started or released outside the lock: no one else starts them meanwhile. Guarded by lock. */
    private final Set<MessageQueue> busy = new HashSet<>();

    /**
     * @param clientId       this client's id, as the group's member list names it
     * @param queries        the group's members and queue offsets, from brokers
     * @param sendHeartbeats tells every broker about this client at once
     * @param later          where the retry of an unbalanced rebalance runs
     * @param clock          the time {@link ConsumeFromWhere#TIMESTAMP} looks back from
     * @param gate           what a queue needs before it is read and after it is dropped
     * @param onAdded        called, outside the lock, with each queue started
     */
    RebalanceService(String clientId, ConsumerSettings settings, AllocateStrategy strategy, OffsetStore offsets,
                     QueueQueries queries, Routes routes, Runnable sendHeartbeats, Later later, Clock clock,
                     QueueGate gate, Consumer<ProcessQueue> onAdded) {
        this.clientId = clientId;
        this.settings = settings;
        this.strategy = strategy;
        this.offsets = offsets;
        this.queries = queries;
        this.routes = routes;
        this.sendHeartbeats = sendHeartbeats;
        this.later = later;
        this.clock = clock;
        this.gate = gate;
        this.onAdded = onAdded;
    }

    /** The queues this consumer reads now. */
    /** Divides queues with {@code replacement} from the next rebalance on. */
    void useStrategy(AllocateStrategy replacement) {
        this.strategy = Objects.requireNonNull(replacement, "replacement");
    }

    Map<MessageQueue, ProcessQueue> queues() {
        return queues;
    }

    /** Whether the calling thread holds the service's lock now: what must never be true across a network call. */
    boolean holdsLock() {
        return Thread.holdsLock(lock);
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
            later.after(UNBALANCED_RETRY, () -> {
                retryScheduled.set(false);
                FerryClient.runLogged(() -> rebalanceRetrying(topics, active));
            });
        }
    }

    /**
     * Re-divides the queues of {@code topics} and drops queues of topics no longer read.
     *
     * @return whether every topic was balanced; when not, the caller retries soon
     */
    boolean rebalance(Collection<String> topics) {
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
                // retried every second: said once per new reason, and not at all when the route cache has said
                // the name servers do not answer
                String reason = e.getMessage();
                boolean known = !routes.nameServerReachable() || Objects.equals(reason, lastFailure);
                lastFailure = reason;
                LOG.log(known ? Level.DEBUG : Level.WARNING, "rebalance of " + topic + " for group "
                        + settings.group() + " failed: " + reason);
                balanced = false;
            }
        }
        if (balanced) {
            lastFailure = null;
        }
        Set<String> read = new HashSet<>(topics);
        List<ProcessQueue> gone;
        synchronized (lock) {
            wanted.keySet().retainAll(read);
            gone = takeOut(queue -> !read.contains(queue.topic()));
        }
        release(gone);
        return balanced;
    }

    /** This consumer's share of the topic's queues; empty when it cannot be known now. */
    private Optional<List<MessageQueue>> allocate(String topic) {
        Optional<TopicRoute> route = routes.route(topic);
        if (route.isEmpty() || route.get().readQueues().isEmpty()) {
            route = routes.refresh(topic);
        }
        if (route.isEmpty() || route.get().readQueues().isEmpty()) {
            LOG.log(Level.DEBUG, "no route yet for topic " + topic);
            return Optional.empty();
        }
        List<MessageQueue> all = route.get().readQueues();
        if (settings.messageModel() == MessageModel.BROADCASTING) {
            return Optional.of(all);
        }
        if (route.get().readAddresses().isEmpty()) {
            return Optional.empty(); // no broker of the route has an address now
        }
        // any broker of the route answers: each has the group's heartbeats (a slave too, while its master is away)
        String broker = route.get().readAddresses().keySet().iterator().next();
        List<String> ids = new ArrayList<>(queries.consumerIds(broker));
        if (!ids.contains(clientId)) {
            // The broker has not had this consumer's heartbeat yet (a broker new to this client): send it,
            // and allocate on the retry, rather than drop every queue because we are not in the list.
            sendHeartbeats.run();
            return Optional.empty();
        }
        ids.sort(null);
        try {
            return Optional.of(strategy.allocate(settings.group(), clientId, all, ids));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "allocate strategy " + strategy.name() + " failed for " + topic
                    + "; keeping the current queues", e);
            return Optional.empty();
        }
    }

    /**
     * Makes the queues of {@code topic} read exactly {@code mine} (also how a pull consumer assigns).
     *
     * @return whether every wanted queue is read now
     */
    boolean apply(String topic, Collection<MessageQueue> mine) {
        Set<MessageQueue> want = Set.copyOf(mine);
        List<ProcessQueue> gone;
        List<MessageQueue> toStart = new ArrayList<>();
        synchronized (lock) {
            wanted.put(topic, want);
            gone = takeOut(queue -> queue.topic().equals(topic) && !want.contains(queue));
            for (MessageQueue queue : new TreeSet<>(want)) {
                if (!queues.containsKey(queue) && busy.add(queue)) {
                    toStart.add(queue);
                }
            }
        }
        release(gone);
        boolean complete = true;
        for (MessageQueue queue : toStart) {
            complete &= start(queue);
        }
        synchronized (lock) {
            return complete && queues.keySet().containsAll(want);
        }
    }

    /** Takes the queues {@code which} selects out of the map and drops them, so no consume thread moves them. */
    private List<ProcessQueue> takeOut(Predicate<MessageQueue> which) {
        List<ProcessQueue> out = new ArrayList<>();
        for (MessageQueue queue : new ArrayList<>(queues.keySet())) {
            if (which.test(queue) && busy.add(queue)) {
                ProcessQueue processQueue = queues.remove(queue);
                processQueue.drop();
                out.add(processQueue);
            }
        }
        return out;
    }

    /** Persists and lets go of dropped queues, outside the lock; a queue is free to start again after. */
    private void release(List<ProcessQueue> gone) {
        for (ProcessQueue processQueue : gone) {
            MessageQueue queue = processQueue.queue();
            try {
                gate.release(processQueue, () -> offsets.persist(queue));
            } finally {
                synchronized (lock) {
                    offsets.remove(queue);
                    busy.remove(queue);
                }
                LOG.log(Level.DEBUG, clientId + " no longer reads " + queue);
            }
        }
    }

    /** Admits and positions one queue outside the lock, then puts it in unless it stopped being wanted meanwhile. */
    private boolean start(MessageQueue queue) {
        ProcessQueue started = null;
        try {
            if (!gate.admit(queue)) {
                return false;
            }
            // Read the start only now: an orderly queue's previous owner persisted its offset before unlocking.
            long start = startOffset(queue);
            if (start < 0) {
                return false;
            }
            ProcessQueue processQueue = new ProcessQueue(queue, start, clock);
            synchronized (lock) {
                if (wanted.getOrDefault(queue.topic(), Set.of()).contains(queue)) {
                    gate.opened(processQueue);
                    offsets.update(queue, start, false);
                    queues.put(queue, processQueue);
                    started = processQueue;
                }
            }
            if (started == null) {
                gate.release(processQueue, () -> { }); // unwanted while it started: let the admission go
                return true;
            }
            LOG.log(Level.DEBUG, clientId + " reads " + queue + " from offset " + start);
            onAdded.accept(started);
            return true;
        } finally {
            synchronized (lock) {
                busy.remove(queue);
            }
        }
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
                case LAST_OFFSET -> retryTopic ? 0L : queries.nextOffset(queue);
                case TIMESTAMP -> retryTopic ? queries.nextOffset(queue)
                        : queries.searchOffset(queue, consumeTimestamp().toEpochMilli());
            };
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot find where to start " + queue + ": " + e.getMessage());
            return -1;
        }
    }

    private Instant consumeTimestamp() {
        return Instant.EPOCH.equals(settings.consumeTimestamp())
                ? clock.instant().minus(DEFAULT_TIMESTAMP_LOOKBACK) : settings.consumeTimestamp();
    }
}
