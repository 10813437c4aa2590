package dev.ferry.server.broker;

import dev.ferry.remoting.RemoteChannel;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Producer groups clients report in heartbeats, with the connections of their clients: the
 * broker asks one of them about a transaction whose outcome it does not know.
 */
final class ProducerGroups {
    private record Member(String clientId, RemoteChannel channel, long lastSeenMillis) {
    }

    private final Clock clock;
    private final Map<String, Map<String, Member>> groups = new ConcurrentHashMap<>();

    ProducerGroups(Clock clock) {
        this.clock = clock;
    }

    void heartbeat(String group, String clientId, RemoteChannel channel) {
        groups.computeIfAbsent(group, g -> new ConcurrentHashMap<>())
                .put(channel.id(), new Member(clientId, channel, clock.millis()));
    }

    void unregister(String group, String clientId) {
        Map<String, Member> members = groups.get(group);
        if (members != null) {
            members.values().removeIf(m -> m.clientId().equals(clientId));
        }
    }

    void connectionClosed(String channelId) {
        groups.values().forEach(members -> members.remove(channelId));
    }

    void expire(Duration expiry) {
        long deadline = clock.millis() - expiry.toMillis();
        groups.values().forEach(members -> members.values().removeIf(m -> m.lastSeenMillis() < deadline));
    }

    /** Live connections of the group's clients. */
    List<RemoteChannel> channels(String group) {
        Map<String, Member> members = groups.get(group);
        return members == null ? List.of()
                : members.values().stream().map(Member::channel).filter(RemoteChannel::isActive).toList();
    }
}
