package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.InlineRule;
import dev.ferry.remoting.RemotingCommand;
import dev.ferry.remoting.RequestContext;
import dev.ferry.remoting.protocol.ResponseCode;
import dev.ferry.remoting.protocol.header.PullMessageRequestHeader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pull requests held because nothing new was there to answer them (long polling), listed per queue; a queue's list
 * goes when it empties. A held pull
 * is retried when a message arrives in its queue, when its group's subscription changes, or,
 * finally, when its hold time runs out; retrying answers it or holds it again.
 *
 * <p>At most {@link BrokerLimits#maxHeldPulls()} pulls are held at once, and
 * {@link BrokerLimits#maxHeldPullsPerConnection()} of one connection; a pull beyond is not held
 * ({@link #hold} says so) and the caller answers SYSTEM_BUSY, which makes Apache's client wait
 * before it pulls again.
 *
 * <p>Thread-safe: the store's dispatcher reports arrivals, processors add holds, a scan expires
 * them; retries run on the pull executor, or, for a pull the broker would answer on the event loop that read it
 * ({@link #retryOnItsConnection}), on its connection's own thread: the answer is then written where it is made, one
 * thread hand-off fewer between a message's arrival and its consumer. Never on the thread that dispatched (the
 * store's or an appender's).
 */
final class PullRequestHold {
    private static final System.Logger LOG = System.getLogger(PullRequestHold.class.getName());

    /** A held pull: what is needed to run it again. */
    record HeldPull(RequestContext context, RemotingCommand request, PullMessageRequestHeader header,
                    long deadlineMillis) {
    }

    /** Runs a held pull again; {@code mayHoldAgain} is false once its time is up. */
    @FunctionalInterface
    interface Retry {
        void run(HeldPull pull, boolean mayHoldAgain);
    }

    private final Map<String, List<HeldPull>> held = new ConcurrentHashMap<>();
    private final Map<String, Integer> heldByConnection = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final Clock clock;
    private final Executor executor;
    private final int maxHeld;
    private final int maxHeldPerConnection;
    private volatile Retry retry;
    private volatile InlineRule onItsConnection = InlineRule.NEVER;

    PullRequestHold(Clock clock, Executor executor, int maxHeld, int maxHeldPerConnection) {
        this.clock = clock;
        this.executor = executor;
        this.maxHeld = maxHeld;
        this.maxHeldPerConnection = maxHeldPerConnection;
    }

    void retryWith(Retry value) {
        this.retry = value;
    }

    /** Retries the held pulls {@code rule} takes on their connection's own thread, when it has one. */
    void retryOnItsConnection(InlineRule rule) {
        this.onItsConnection = rule;
    }

    private static String key(String topic, int queueId) {
        return topic + "@" + queueId;
    }

    /** Holds the pull; returns false, holding nothing, when the broker or its connection holds all it may. */
    boolean hold(HeldPull pull) {
        if (total.incrementAndGet() > maxHeld) {
            total.decrementAndGet();
            return false;
        }
        boolean[] admitted = {false};
        // counted and dropped atomically per connection, so a release racing a hold never loses a count
        heldByConnection.compute(pull.context().channel().id(), (connection, held) -> {
            int now = held == null ? 0 : held;
            admitted[0] = now < maxHeldPerConnection;
            return admitted[0] ? now + 1 : held;
        });
        if (!admitted[0]) {
            total.decrementAndGet();
            return false;
        }
        // added within the map's atomic update of the key, so that a list emptied and dropped meanwhile is not used
        held.compute(key(pull.header().topic(), pull.header().queueId()), (key, list) -> {
            List<HeldPull> kept = list == null ? new ArrayList<>() : list;
            synchronized (kept) {
                kept.add(pull);
            }
            return kept;
        });
        return true;
    }

    /**
     * Drops the queue's list if it is empty, atomically with any hold of that queue, so that queues once held do not
     * stay in the table (a client can name any number of them).
     */
    private void dropIfEmpty(String key) {
        held.computeIfPresent(key, (k, list) -> {
            synchronized (list) {
                return list.isEmpty() ? null : list;
            }
        });
    }

    /** Queues with held pulls now. */
    int queues() {
        return held.size();
    }

    /** A held pull left the hold. */
    private void released(HeldPull pull) {
        total.decrementAndGet();
        heldByConnection.computeIfPresent(pull.context().channel().id(), (connection, held) -> held <= 1 ? null
                : held - 1);
    }

    /** A message was dispatched to the queue: retry the pulls waiting below its new end. */
    void onArrival(String topic, int queueId, long nextQueueOffset) {
        String key = key(topic, queueId);
        List<HeldPull> list = held.get(key);
        if (list == null) {
            return;
        }
        List<HeldPull> ready = new ArrayList<>();
        synchronized (list) {
            for (Iterator<HeldPull> it = list.iterator(); it.hasNext(); ) {
                HeldPull pull = it.next();
                if (pull.header().queueOffset() < nextQueueOffset) {
                    it.remove();
                    ready.add(pull);
                }
            }
        }
        if (!ready.isEmpty()) {
            dropIfEmpty(key);
        }
        ready.forEach(pull -> submit(pull, true));
    }

    /** A group's subscription changed: retry its pulls, which may have waited for it. */
    void onSubscriptionChanged(String group) {
        List<HeldPull> ready = new ArrayList<>();
        for (Map.Entry<String, List<HeldPull>> queue : held.entrySet()) {
            List<HeldPull> list = queue.getValue();
            boolean removed;
            synchronized (list) {
                removed = list.removeIf(pull -> {
                    boolean match = pull.header().consumerGroup().equals(group);
                    if (match) {
                        ready.add(pull);
                    }
                    return match;
                });
            }
            if (removed) {
                dropIfEmpty(queue.getKey());
            }
        }
        ready.forEach(pull -> submit(pull, true));
    }

    /** Answers the pulls whose hold time is over. */
    void expire() {
        long now = clock.millis();
        List<HeldPull> due = new ArrayList<>();
        for (Map.Entry<String, List<HeldPull>> queue : held.entrySet()) {
            List<HeldPull> list = queue.getValue();
            synchronized (list) {
                list.removeIf(pull -> {
                    boolean over = pull.deadlineMillis() <= now || !pull.context().channel().isActive();
                    if (over) {
                        due.add(pull);
                    }
                    return over;
                });
            }
            dropIfEmpty(queue.getKey()); // also any list another path left empty
        }
        due.forEach(pull -> submit(pull, false));
    }

    int size() {
        return total.get();
    }

    private void submit(HeldPull pull, boolean mayHoldAgain) {
        released(pull);
        if (!pull.context().channel().isActive()) {
            pull.context().respond(answer(pull, ResponseCode.SYSTEM_ERROR, "the connection closed")); // frees it
            return;
        }
        try {
            retryExecutor(pull).execute(() -> {
                try {
                    retry.run(pull, mayHoldAgain);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "retrying a held pull failed", e);
                    pull.context().respond(answer(pull, ResponseCode.SYSTEM_ERROR, e.toString()));
                }
            });
        } catch (RejectedExecutionException e) {
            // the pull threads are swamped, or they or the connection's event loop are stopping: tell the consumer
            // to come back rather than leave it waiting
            LOG.log(System.Logger.Level.DEBUG, "answering a held pull SYSTEM_BUSY: its retry was refused");
            pull.context().respond(answer(pull, ResponseCode.SYSTEM_BUSY, ResponseCode.OVERLOAD_REMARK));
        }
    }

    private Executor retryExecutor(HeldPull pull) {
        Optional<Executor> own = pull.context().channel().ioThread();
        if (own.isEmpty()) {
            return executor;
        }
        try {
            return onItsConnection.inline(pull.request()) ? own.get() : executor;
        } catch (RuntimeException e) { // a rule that cannot read the request leaves it to the pull executor
            return executor;
        }
    }

    private static RemotingCommand answer(HeldPull pull, int code, String remark) {
        return RemotingCommand.responseTo(pull.request(), code).remark(remark).build();
    }
}
