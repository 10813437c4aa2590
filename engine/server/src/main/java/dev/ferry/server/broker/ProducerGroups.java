package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.RemoteChannel;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Producer groups clients report in heartbeats, with the connections of their clients: the broker asks one of them
 * about a transaction whose outcome it does not know. A group lives while it has live clients: it goes with its last
 * connection, unregistration or silent client, and at most {@link BrokerLimits#maxProducerGroups()} live at once.
 *
 * <p>Thread-safe; membership changes are serialized on this object.
 */
final class ProducerGroups {
    /** A live client of a group, with the language and protocol version its heartbeat carried. */
    record Member(String clientId, RemoteChannel channel, long lastSeenMillis, String language, int version) {
    }

    private final Clock clock;
    private final int maxGroups;
    private final Memberships memberships;
    private final Map<String, Map<String, Member>> groups = new ConcurrentHashMap<>();

    ProducerGroups(Clock clock, int maxGroups) {
        this(clock, maxGroups, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    ProducerGroups(Clock clock, int maxGroups, int maxGroupsPerConnection, int maxMemberships) {
        this.clock = clock;
        this.maxGroups = maxGroups;
        this.memberships = new Memberships(maxGroupsPerConnection, maxMemberships);
    }

    /**
     * Records a live client of the group; returns false when the group is new and the table is full, or the
     * connection (or all together) are members of as many groups as allowed.
     */
    boolean heartbeat(String group, String clientId, RemoteChannel channel) {
        return heartbeat(group, clientId, "JAVA", 0, channel);
    }

    /** As {@link #heartbeat(String, String, RemoteChannel)}, with the client's language and protocol version. */
    synchronized boolean heartbeat(String group, String clientId, String language, int version,
                                   RemoteChannel channel) {
        Map<String, Member> members = groups.get(group);
        if (members == null && groups.size() >= maxGroups || !memberships.join(channel.id(), group)) {
            return false;
        }
        groups.computeIfAbsent(group, g -> new ConcurrentHashMap<>())
                .put(channel.id(), new Member(clientId, channel, clock.millis(), language, version));
        return true;
    }

    synchronized void unregister(String group, String clientId) {
        Map<String, Member> members = groups.get(group);
        if (members != null) {
            removeIf(group, members, m -> m.clientId().equals(clientId));
        }
    }

    synchronized void connectionClosed(String channelId) {
        groups.forEach((group, members) -> {
            if (members.remove(channelId) != null) {
                memberships.leave(channelId, group);
            }
            dropIfEmpty(group, members);
        });
    }

    synchronized void expire(Duration expiry) {
        long deadline = clock.millis() - expiry.toMillis();
        groups.forEach((group, members) -> removeIf(group, members, m -> m.lastSeenMillis() < deadline));
    }

    private void removeIf(String group, Map<String, Member> members, java.util.function.Predicate<Member> gone) {
        members.entrySet().removeIf(e -> {
            boolean remove = gone.test(e.getValue());
            if (remove) {
                memberships.leave(e.getKey(), group);
            }
            return remove;
        });
        dropIfEmpty(group, members);
    }

    private void dropIfEmpty(String group, Map<String, Member> members) {
        if (members.isEmpty()) {
            groups.remove(group, members);
        }
    }

    /** Live connections of the group's clients. */
    /** Every group's live clients, one per connection and group. */
    List<Member> allMembers() {
        List<Member> all = new java.util.ArrayList<>();
        groups.values().forEach(members -> all.addAll(members.values()));
        return all;
    }

    /** The group's live clients, one per connection. */
    List<Member> members(String group) {
        Map<String, Member> members = groups.get(group);
        return members == null ? List.of() : List.copyOf(members.values());
    }

    /**
     * The live connection of the client that heartbeats as {@code clientId} in any group: where a reply to its
     * request is pushed. A walk over every member (bounded by the group and membership limits), done once a reply.
     */
    Optional<RemoteChannel> channelOf(String clientId) {
        for (Map<String, Member> members : groups.values()) {
            for (Member member : members.values()) {
                if (member.clientId().equals(clientId) && member.channel().isActive()) {
                    return Optional.of(member.channel());
                }
            }
        }
        return Optional.empty();
    }

    List<RemoteChannel> channels(String group) {
        Map<String, Member> members = groups.get(group);
        return members == null ? List.of()
                : members.values().stream().map(Member::channel).filter(RemoteChannel::isActive).toList();
    }

    int size() {
        return groups.size();
    }
}
