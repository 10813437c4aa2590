package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Producer groups clients report in heartbeats, with the connections of their clients: the broker asks one of them
 * about a transaction whose outcome it does not know. A group lives while it has live clients: it goes with its last
 * connection, unregistration or silent client, and at most {@link BrokerLimits#maxProducerGroups()} live at once.
 *
 * <p>Thread-safe; membership changes are serialized on this object.
 */
final class ProducerGroups {
    private record Member(String clientId, RemoteChannel channel, long lastSeenMillis) {
    }

    private final Clock clock;
    private final int maxGroups;
    private final Map<String, Map<String, Member>> groups = new ConcurrentHashMap<>();

    ProducerGroups(Clock clock, int maxGroups) {
        this.clock = clock;
        this.maxGroups = maxGroups;
    }

    /** Records a live client of the group; returns false when the group is new and the table is full. */
    synchronized boolean heartbeat(String group, String clientId, RemoteChannel channel) {
        Map<String, Member> members = groups.get(group);
        if (members == null) {
            if (groups.size() >= maxGroups) {
                return false;
            }
            members = new ConcurrentHashMap<>();
            groups.put(group, members);
        }
        members.put(channel.id(), new Member(clientId, channel, clock.millis()));
        return true;
    }

    synchronized void unregister(String group, String clientId) {
        Map<String, Member> members = groups.get(group);
        if (members != null) {
            members.values().removeIf(m -> m.clientId().equals(clientId));
            dropIfEmpty(group, members);
        }
    }

    synchronized void connectionClosed(String channelId) {
        groups.forEach((group, members) -> {
            members.remove(channelId);
            dropIfEmpty(group, members);
        });
    }

    synchronized void expire(Duration expiry) {
        long deadline = clock.millis() - expiry.toMillis();
        groups.forEach((group, members) -> {
            members.values().removeIf(m -> m.lastSeenMillis() < deadline);
            dropIfEmpty(group, members);
        });
    }

    private void dropIfEmpty(String group, Map<String, Member> members) {
        if (members.isEmpty()) {
            groups.remove(group, members);
        }
    }

    /** Live connections of the group's clients. */
    List<RemoteChannel> channels(String group) {
        Map<String, Member> members = groups.get(group);
        return members == null ? List.of()
                : members.values().stream().map(Member::channel).filter(RemoteChannel::isActive).toList();
    }

    int size() {
        return groups.size();
    }
}
