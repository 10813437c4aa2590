package dev.ferry.server.broker;

import dev.ferry.remoting.protocol.body.MessageQueueBody;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which client of a consumer group owns which queue, for orderly consumers: a queue is consumed by
 * its owner alone. A lock lasts {@link #EXPIRY} from its last renewal (clients renew every 20 s),
 * so a client that vanishes without unlocking frees its queues within a minute.
 *
 * <p>Thread-safe: every method holds the table's monitor; lock requests are rare and small.
 */
final class QueueLocks {
    /** RocketMQ's rebalance lock lifetime. */
    static final Duration EXPIRY = Duration.ofSeconds(60);

    private record Owner(String clientId, long renewedMillis) {
    }

    private final Clock clock;
    private final Map<String, Map<MessageQueueBody, Owner>> groups = new HashMap<>();

    QueueLocks(Clock clock) {
        this.clock = clock;
    }

    /** Locks (or renews) each queue free or already owned by {@code clientId}; returns the queues it now owns. */
    synchronized Set<MessageQueueBody> lock(String group, String clientId, Set<MessageQueueBody> queues) {
        Map<MessageQueueBody, Owner> owners = groups.computeIfAbsent(group, g -> new HashMap<>());
        long now = clock.millis();
        owners.values().removeIf(owner -> expired(owner, now)); // a client gone without unlocking leaves nothing
        Set<MessageQueueBody> locked = new HashSet<>();
        for (MessageQueueBody queue : queues) {
            Owner owner = owners.get(queue);
            if (owner == null || owner.clientId().equals(clientId) || expired(owner, now)) {
                owners.put(queue, new Owner(clientId, now));
                locked.add(queue);
            }
        }
        return locked;
    }

    /** Releases the queues {@code clientId} owns among {@code queues}; others' locks stay. */
    synchronized void unlock(String group, String clientId, Set<MessageQueueBody> queues) {
        Map<MessageQueueBody, Owner> owners = groups.get(group);
        if (owners == null) {
            return;
        }
        for (MessageQueueBody queue : queues) {
            Owner owner = owners.get(queue);
            if (owner != null && owner.clientId().equals(clientId)) {
                owners.remove(queue);
            }
        }
        if (owners.isEmpty()) {
            groups.remove(group);
        }
    }

    /** Whether {@code clientId} owns the queue now. */
    synchronized boolean isLockedBy(String group, MessageQueueBody queue, String clientId) {
        Map<MessageQueueBody, Owner> owners = groups.get(group);
        Owner owner = owners == null ? null : owners.get(queue);
        return owner != null && owner.clientId().equals(clientId) && !expired(owner, clock.millis());
    }

    /** Locks the group holds now, expired ones until its next lock request included. */
    synchronized int size(String group) {
        Map<MessageQueueBody, Owner> owners = groups.get(group);
        return owners == null ? 0 : owners.size();
    }

    private static boolean expired(Owner owner, long now) {
        return now - owner.renewedMillis() >= EXPIRY.toMillis();
    }
}
