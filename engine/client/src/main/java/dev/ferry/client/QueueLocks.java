package dev.ferry.client;

import dev.ferry.api.MessageQueue;
import dev.ferry.format.Clock;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The broker locks of an orderly clustering consumer (LOCK_BATCH_MQ / UNLOCK_BATCH_MQ): a queue is read
 * only while it is locked to this client. New queues are locked before they are read, every assigned queue
 * is re-locked every 20 s (a lock the client has not confirmed for {@link #VALIDITY} counts as lost), and a
 * queue that goes away has its offset persisted under the consume lock before it is unlocked, so that the
 * next owner starts exactly after the last consumed message. Thread-safe.
 */
final class QueueLocks implements QueueGate {
    private static final System.Logger LOG = System.getLogger(QueueLocks.class.getName());
    /** How long a confirmed lock is trusted; the broker keeps it 60 s, the client renews every 20 s. */
    static final Duration VALIDITY = Duration.ofSeconds(30);
    /** How often locks are renewed. */
    static final Duration RENEWAL = Duration.ofSeconds(20);
    private static final Duration RELEASE_WAIT = Duration.ofSeconds(1);

    private final ConsumerRequests requests;
    private final Clock clock;

    QueueLocks(ConsumerRequests requests, Clock clock) {
        this.requests = requests;
        this.clock = clock;
    }

    /** Whether the consume task may read {@code queue} now. */
    boolean holds(ProcessQueue queue) {
        return queue.isLocked(clock.millis(), VALIDITY.toMillis());
    }

    @Override
    public boolean admit(MessageQueue queue) {
        try {
            return requests.lock(queue.brokerName(), List.of(queue)).contains(queue);
        } catch (RuntimeException e) {
            LOG.log(Level.DEBUG, "locking " + queue + " failed: " + e.getMessage());
            return false;
        }
    }

    @Override
    public void opened(ProcessQueue queue) {
        queue.lockConfirmed(true, clock.millis());
    }

    @Override
    public void release(ProcessQueue queue, Runnable persistOffset) {
        boolean held = false;
        try {
            held = queue.consumeLock().tryLock(RELEASE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            persistOffset.run();
            unlock(List.of(queue));
        } finally {
            if (held) {
                queue.consumeLock().unlock();
            }
        }
    }

    /** Re-locks every queue, per broker; queues the broker no longer locks to this client stop being read. */
    void renew(Collection<ProcessQueue> queues) {
        Map<String, List<ProcessQueue>> byBroker = queues.stream()
                .collect(Collectors.groupingBy(q -> q.queue().brokerName()));
        byBroker.forEach((broker, brokerQueues) -> {
            try {
                Set<MessageQueue> locked = requests.lock(broker, brokerQueues.stream().map(ProcessQueue::queue)
                        .toList());
                long now = clock.millis();
                brokerQueues.forEach(q -> q.lockConfirmed(locked.contains(q.queue()), now));
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "renewing the locks on " + broker + " failed: " + e.getMessage());
            }
        });
    }

    /** Gives up the locks of {@code queues} (at shutdown, after the offsets were persisted). */
    void unlock(Collection<ProcessQueue> queues) {
        Map<String, List<MessageQueue>> byBroker = queues.stream().map(ProcessQueue::queue)
                .collect(Collectors.groupingBy(MessageQueue::brokerName));
        byBroker.forEach((broker, brokerQueues) -> {
            try {
                requests.unlock(broker, brokerQueues);
            } catch (RuntimeException e) {
                LOG.log(Level.DEBUG, "unlocking " + brokerQueues + " failed (the broker lock expires in 60 s): "
                        + e.getMessage());
            }
        });
        queues.forEach(q -> q.lockConfirmed(false, clock.millis()));
    }
}
