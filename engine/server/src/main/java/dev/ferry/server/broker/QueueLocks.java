package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.MessageQueueBody;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Which client of a consumer group owns which queue, for orderly consumers: a queue is consumed by
 * its owner alone. A lock lasts {@link #EXPIRY} from its last renewal (clients renew every 20 s),
 * so a client that vanishes without unlocking frees its queues within a minute; a client whose
 * connection closes frees them at once (a client that reconnects locks them again on its next
 * rebalance, as after an expiry).
 *
 * <p>Bounded: at most {@code maxLocks} locks over every group; a queue beyond is not locked. The
 * locks are kept in order of their last renewal, so every call first drops the expired ones at the
 * head, over all groups: each lock is dropped once, so the work is constant per lock taken.
 *
 * <p>Thread-safe: every method holds the table's monitor; lock requests are rare (a client's
 * rebalance, every 20 s) and connection closes are told on one thread.
 */
final class QueueLocks {
    /** RocketMQ's rebalance lock lifetime. */
    static final Duration EXPIRY = Duration.ofSeconds(60);
    /** The connection of a lock taken with none (tests, calls from inside the broker). */
    static final String NO_CONNECTION = "";

    /** What one lock request got: the queues its client owns now, and how many were refused for the bound. */
    record Granted(Set<MessageQueueBody> locked, int refused) {
    }

    private record Key(String group, MessageQueueBody queue) {
    }

    private record Owner(String clientId, String connection, long renewedMillis) {
    }

    private final Clock clock;
    private final int maxLocks;
    /** Every lock, in order of its last renewal (oldest first). */
    private final LinkedHashMap<Key, Owner> owners = new LinkedHashMap<>();
    /** The locks taken over each open connection, so that its close frees them. */
    private final Map<String, Set<Key>> byConnection = new HashMap<>();
    private long refused;

    QueueLocks(Clock clock) {
        this(clock, BrokerLimits.defaults().maxQueueLocks());
    }

    QueueLocks(Clock clock, int maxLocks) {
        this.clock = clock;
        this.maxLocks = maxLocks;
    }

    /** Locks (or renews) each queue free or already owned by {@code clientId}; returns the queues it now owns. */
    Set<MessageQueueBody> lock(String group, String clientId, Set<MessageQueueBody> queues) {
        return lock(group, clientId, NO_CONNECTION, queues).locked();
    }

    /**
     * As {@link #lock(String, String, Set)}, for a client on {@code connection}: its locks are freed when the
     * connection closes. A queue not locked yet is refused while the table holds its most locks.
     */
    synchronized Granted lock(String group, String clientId, String connection, Set<MessageQueueBody> queues) {
        long now = clock.millis();
        dropExpired(now);
        Set<MessageQueueBody> locked = new HashSet<>();
        int full = 0;
        for (MessageQueueBody queue : queues) {
            Key key = new Key(group, queue);
            Owner owner = owners.get(key);
            if (owner != null && !owner.clientId().equals(clientId) && !expired(owner, now)) {
                continue;
            }
            if (owner == null && owners.size() >= maxLocks) {
                full++;
                continue;
            }
            if (owner != null) {
                remove(key, owner); // put again at the end: the newest renewal
            }
            owners.put(key, new Owner(clientId, connection, now));
            if (!connection.equals(NO_CONNECTION)) {
                byConnection.computeIfAbsent(connection, c -> new HashSet<>()).add(key);
            }
            locked.add(queue);
        }
        refused += full;
        return new Granted(locked, full);
    }

    /** Releases the queues {@code clientId} owns among {@code queues}; others' locks stay. */
    synchronized void unlock(String group, String clientId, Set<MessageQueueBody> queues) {
        for (MessageQueueBody queue : queues) {
            Key key = new Key(group, queue);
            Owner owner = owners.get(key);
            if (owner != null && owner.clientId().equals(clientId)) {
                remove(key, owner);
            }
        }
    }

    /** Frees every lock taken over {@code connection}, now closed. */
    synchronized void connectionClosed(String connection) {
        Set<Key> keys = byConnection.remove(connection);
        if (keys == null) {
            return;
        }
        for (Key key : keys) {
            Owner owner = owners.get(key);
            if (owner != null && owner.connection().equals(connection)) {
                owners.remove(key);
            }
        }
    }

    /** Whether {@code clientId} owns the queue now. */
    synchronized boolean isLockedBy(String group, MessageQueueBody queue, String clientId) {
        Owner owner = owners.get(new Key(group, queue));
        return owner != null && owner.clientId().equals(clientId) && !expired(owner, clock.millis());
    }

    /** Locks the group holds now, expired ones not dropped yet included. */
    synchronized int size(String group) {
        return (int) owners.keySet().stream().filter(key -> key.group().equals(group)).count();
    }

    /** Locks held now, over every group. */
    synchronized int size() {
        return owners.size();
    }

    /** Queues not locked since start because the table held its most locks. */
    synchronized long refused() {
        return refused;
    }

    /** Drops the expired locks at the head of the renewal order. */
    private void dropExpired(long now) {
        Iterator<Map.Entry<Key, Owner>> oldest = owners.entrySet().iterator();
        while (oldest.hasNext()) {
            Map.Entry<Key, Owner> entry = oldest.next();
            if (!expired(entry.getValue(), now)) {
                return;
            }
            oldest.remove();
            forgetConnection(entry.getKey(), entry.getValue());
        }
    }

    private void remove(Key key, Owner owner) {
        owners.remove(key);
        forgetConnection(key, owner);
    }

    private void forgetConnection(Key key, Owner owner) {
        if (owner.connection().equals(NO_CONNECTION)) {
            return;
        }
        Set<Key> keys = byConnection.get(owner.connection());
        if (keys != null && keys.remove(key) && keys.isEmpty()) {
            byConnection.remove(owner.connection());
        }
    }

    private static boolean expired(Owner owner, long now) {
        return now - owner.renewedMillis() >= EXPIRY.toMillis();
    }
}
