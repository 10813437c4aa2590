package dev.ferry.remoting.internal;

import dev.ferry.format.Clock;
import io.netty.channel.Channel;
import java.net.InetAddress;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The connections a server keeps, and who gives way when they run out. A connection takes a slot as it arrives, in
 * the total and in its source address's share. When one of them is full, the connection that makes least use of its
 * slot gives way: first the oldest one that has not yet sent a whole request (of the same source address, when that
 * share is full); when every connection of a full total has, the one whose last request is oldest. A full share whose
 * connections have all sent requests refuses the newcomer instead: one address cannot push out the others' clients,
 * while idle connections, from anywhere, cannot lock real clients out.
 *
 * <p>Thread-safe: slots are taken on the event loops of the new connections, requests recorded on theirs.
 */
public final class ConnectionSlots {
    private final int maxConnections;
    private final int maxPerAddress;
    private final Clock clock;
    private final Map<Channel, Slot> slots = new HashMap<>();
    /** Connections that have not sent a whole request yet, oldest first. */
    private final LinkedHashMap<Channel, Slot> unproven = new LinkedHashMap<>();
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private long refused;
    private long evicted;

    /**
     * @param clock whose monotonic reading orders connections by their last request
     */
    public ConnectionSlots(int maxConnections, int maxPerAddress, Clock clock) {
        this.maxConnections = maxConnections;
        this.maxPerAddress = maxPerAddress;
        this.clock = clock;
    }

    /**
     * What admitting a connection decided: its slot, or none when it is refused; the connection that gave way for it,
     * if any; and why the one or the other.
     */
    public record Admission(Optional<Slot> slot, Optional<Channel> evicted, String reason) {
        static Admission refused(String reason) {
            return new Admission(Optional.empty(), Optional.empty(), reason);
        }
    }

    /**
     * Gives {@code channel}, from {@code address}, a slot. Returns whether it has one and, when another connection
     * had to give way, that connection, which the caller closes.
     */
    public synchronized Admission admit(Channel channel, InetAddress address) {
        Optional<Slot> victim = Optional.empty();
        String reason = "";
        if (perAddress.getOrDefault(address, 0) >= maxPerAddress) {
            victim = oldestUnprovenOf(address);
            if (victim.isEmpty()) {
                refused++;
                return Admission.refused(maxPerAddress + " connections from " + address.getHostAddress()
                        + " are open, each of which has sent requests");
            }
            reason = "its source address has " + maxPerAddress + " connections open";
        } else if (slots.size() >= maxConnections) {
            victim = unproven.values().stream().findFirst().or(this::longestIdle);
            reason = maxConnections + " connections are open";
        }
        victim.ifPresent(slot -> {
            release(slot.channel);
            evicted++;
        });
        Slot slot = new Slot(channel, address, clock.nanos());
        slots.put(channel, slot);
        unproven.put(channel, slot);
        perAddress.merge(address, 1, Integer::sum);
        return new Admission(Optional.of(slot), victim.map(s -> s.channel), reason);
    }

    /** The connection holding {@code slot} has sent a whole request. */
    void requestArrived(Slot slot) {
        slot.lastRequestNanos = clock.nanos();
        if (!slot.proven) {
            slot.proven = true;
            synchronized (this) {
                unproven.remove(slot.channel);
            }
        }
    }

    /** {@code channel} has closed (or was refused); idempotent. */
    public synchronized void release(Channel channel) {
        Slot slot = slots.remove(channel);
        if (slot != null) {
            unproven.remove(channel);
            perAddress.computeIfPresent(slot.address, (a, n) -> n == 1 ? null : n - 1);
        }
    }

    public synchronized int size() {
        return slots.size();
    }

    /** Connections refused since start: their address's share was full of connections that had sent requests. */
    public synchronized long refused() {
        return refused;
    }

    /** Connections closed since start to make room for a new one. */
    public synchronized long evicted() {
        return evicted;
    }

    private Optional<Slot> oldestUnprovenOf(InetAddress address) {
        for (Iterator<Slot> it = unproven.values().iterator(); it.hasNext(); ) {
            Slot slot = it.next();
            if (slot.address.equals(address)) {
                return Optional.of(slot);
            }
        }
        return Optional.empty();
    }

    /** A scan: reached only when the total is full and every connection has sent a request. */
    private Optional<Slot> longestIdle() {
        Slot oldest = null;
        for (Slot slot : slots.values()) {
            if (oldest == null || slot.lastRequestNanos - oldest.lastRequestNanos < 0) {
                oldest = slot;
            }
        }
        return Optional.ofNullable(oldest);
    }

    /** One connection's slot. */
    public static final class Slot {
        private final Channel channel;
        private final InetAddress address;
        private volatile long lastRequestNanos;
        private volatile boolean proven;

        private Slot(Channel channel, InetAddress address, long now) {
            this.channel = channel;
            this.address = address;
            this.lastRequestNanos = now;
        }

        public boolean proven() {
            return proven;
        }
    }
}
