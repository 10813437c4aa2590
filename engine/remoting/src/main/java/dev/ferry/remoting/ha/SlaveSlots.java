package dev.ferry.remoting.ha;

import dev.ferry.format.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The {@value HaStreamServer#MAX_SLAVES} places a master keeps for slaves, one per brokerId, taken only by
 * connections that passed the handshake. A newer connection of a connected brokerId replaces the older when the
 * master checks credentials (it proved it is that broker; the older may be half-open), or when the older stopped
 * reporting for {@link #STALE}; otherwise it is refused, so that without authentication a peer that knows the broker
 * name cannot push the real slave out.
 */
final class SlaveSlots {
    /** Twice the interval at which a slave reports even when idle: a link this quiet is taken for dead. */
    static final Duration STALE = HaStreamServer.HEARTBEAT.multipliedBy(2);

    /** A link for the slave, or why it gets none. */
    record Claim(SlaveLink link, HaRefusal refusal) {
    }

    private final Map<Long, SlaveLink> links;
    private final boolean authenticated;
    private final int max;
    private final HaSource source;
    private final HaSlaveListener slaves;
    private final Clock clock;

    SlaveSlots(Map<Long, SlaveLink> links, boolean authenticated, int max, HaSource source, HaSlaveListener slaves,
               Clock clock) {
        this.links = links;
        this.authenticated = authenticated;
        this.max = max;
        this.source = source;
        this.slaves = slaves;
        this.clock = clock;
    }

    /** On the event loop: the link of slave {@code brokerId}, which takes its place once added to its channel. */
    Claim claim(long brokerId) {
        SlaveLink connected = links.get(brokerId);
        if (connected == null && links.size() >= max) {
            return new Claim(null, HaRefusal.NO_SLOT);
        }
        if (connected != null && !authenticated && !connected.silentFor(STALE, clock.nanos())) {
            return new Claim(null, HaRefusal.ALREADY_CONNECTED);
        }
        return new Claim(new SlaveLink(brokerId, source, slaves, clock, links), null);
    }
}
