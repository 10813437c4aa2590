package dev.ferry.server.broker;

import dev.ferry.format.Clock;
import dev.ferry.remoting.RemoteChannel;
import dev.ferry.remoting.protocol.body.ConsumerData;
import dev.ferry.remoting.protocol.body.SubscriptionData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The consumer groups clients report in their heartbeats: which clients are live in each
 * group, over which connection, and what the group subscribes to.
 *
 * <p>A heartbeat's subscriptions replace the group's (a newer version of a topic's wins, as in
 * Apache), and the subscriptions of every group together hold at most
 * {@link BrokerLimits#maxSubscriptionBytes()} characters, each subscription and tag charged its objects too: a
 * heartbeat that would go beyond is refused for that group. A group lives while it has live clients.
 *
 * <p>Thread-safe. Every method that can change a group's membership returns the groups it
 * changed, so the broker can tell their clients to rebalance at once.
 */
final class ConsumerGroups {
    private static final System.Logger LOG = System.getLogger(ConsumerGroups.class.getName());

    /** What a heartbeat did to a group. */
    enum Heartbeat {
        /** A client new to the group joined. */
        JOINED,
        /** A known client changed the group's subscriptions. */
        CHANGED,
        /** A known client refreshed its membership; the subscriptions are as they were. */
        REFRESHED,
        /** Refused: the group's subscriptions would go beyond what all groups may hold. */
        REFUSED,
        /** Refused: the connection, or all connections together, are members of as many groups as allowed. */
        TOO_MANY_MEMBERSHIPS;

        /** Whether pulls waiting for the group's subscriptions should look again. */
        boolean subscriptionsChanged() {
            return this == JOINED || this == CHANGED;
        }
    }

    /**
     * A live client of a group.
     *
     * @param language the language its heartbeat names ({@code JAVA}, ...)
     * @param version  the protocol version its heartbeat carries
     */
    record Member(String clientId, RemoteChannel channel, long lastSeenMillis, String language, int version) {
    }

    /** One group: settings and subscriptions from the latest heartbeat, members by connection. */
    static final class Group {
        final String name;
        volatile String messageModel = "CLUSTERING";
        volatile String consumeType = "CONSUME_PASSIVELY";
        volatile String consumeFromWhere;
        final Map<String, SubscriptionData> subscriptions = new ConcurrentHashMap<>();
        final Map<String, Member> members = new ConcurrentHashMap<>();
        long subscriptionChars;

        Group(String name) {
            this.name = name;
        }

        boolean broadcasting() {
            return "BROADCASTING".equals(messageModel);
        }
    }

    private final Clock clock;
    private final long maxSubscriptionChars;
    private final Memberships memberships;
    private final Map<String, Group> groups = new ConcurrentHashMap<>();
    private long subscriptionChars;

    ConsumerGroups(Clock clock, long maxSubscriptionChars) {
        this(clock, maxSubscriptionChars, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    ConsumerGroups(Clock clock, long maxSubscriptionChars, int maxGroupsPerConnection, int maxMemberships) {
        this.clock = clock;
        this.maxSubscriptionChars = maxSubscriptionChars;
        this.memberships = new Memberships(maxGroupsPerConnection, maxMemberships);
    }

    /**
     * Records a heartbeat's view of one group.
     *
     * @param withSubscriptions false for a heartbeat that leaves the subscriptions as they are (Apache's
     *                          {@code withoutSub})
     */
    Heartbeat heartbeat(ConsumerData data, String clientId, RemoteChannel channel, boolean withSubscriptions) {
        return heartbeat(data, clientId, "JAVA", 0, channel, withSubscriptions);
    }

    /**
     * Records a heartbeat's view of one group, with the client's language and protocol version as its request names
     * them.
     */
    synchronized Heartbeat heartbeat(ConsumerData data, String clientId, String language, int version,
                                     RemoteChannel channel, boolean withSubscriptions) {
        Group existing = groups.get(data.groupName());
        if (!memberships.join(channel.id(), data.groupName())) {
            return Heartbeat.TOO_MANY_MEMBERSHIPS;
        }
        Map<String, SubscriptionData> next = null;
        long nextChars = 0;
        if (withSubscriptions) {
            next = new HashMap<>();
            for (SubscriptionData sent : data.subscriptionDataSet()) {
                SubscriptionData subscription = withOwnTagCodes(sent);
                SubscriptionData old = existing == null ? null : existing.subscriptions.get(subscription.topic());
                next.put(subscription.topic(), old != null && old.subVersion() > subscription.subVersion() ? old
                        : subscription);
            }
            nextChars = chars(next.values());
            long others = subscriptionChars - (existing == null ? 0 : existing.subscriptionChars);
            if (others + nextChars > maxSubscriptionChars) {
                LOG.log(System.Logger.Level.WARNING, "refusing the heartbeat of client {0} for consumer group {1}: "
                        + "its subscriptions would take the broker beyond {2} characters of subscriptions "
                        + "(maxSubscriptionBytes)", clientId, data.groupName(), maxSubscriptionChars);
                if (existing == null || !existing.members.containsKey(channel.id())) {
                    memberships.leave(channel.id(), data.groupName());
                }
                return Heartbeat.REFUSED;
            }
        }
        Group group = existing != null ? existing : groups.computeIfAbsent(data.groupName(), Group::new);
        if (data.messageModel() != null) {
            group.messageModel = data.messageModel();
        }
        if (data.consumeType() != null) {
            group.consumeType = data.consumeType();
        }
        if (data.consumeFromWhere() != null) {
            group.consumeFromWhere = data.consumeFromWhere();
        }
        boolean changed = next != null && !next.equals(group.subscriptions);
        if (changed) {
            group.subscriptions.keySet().retainAll(next.keySet());
            group.subscriptions.putAll(next);
            subscriptionChars += nextChars - group.subscriptionChars;
            group.subscriptionChars = nextChars;
        }
        Member previous = group.members.put(channel.id(), new Member(clientId, channel, clock.millis(), language,
                version));
        if (previous == null) {
            LOG.log(System.Logger.Level.INFO, "client {0} joined consumer group {1}", clientId, data.groupName());
            return Heartbeat.JOINED;
        }
        return changed ? Heartbeat.CHANGED : Heartbeat.REFRESHED;
    }

    /**
     * The subscription with tag codes computed here from its tags ({@code String.hashCode}, as clients compute them):
     * the broker never keeps a code set a client sent, which could be any size.
     */
    private static SubscriptionData withOwnTagCodes(SubscriptionData sent) {
        Set<Integer> codes = new HashSet<>();
        for (String tag : sent.tagsSet()) {
            codes.add(tag.hashCode());
        }
        return new SubscriptionData(sent.topic(), sent.subString(), sent.tagsSet(), codes, sent.subVersion(),
                sent.expressionType(), sent.classFilterMode());
    }

    /**
     * What a group's subscriptions cost, in characters, each subscription and each kept tag with its code counting for
     * its objects too, so that many small subscriptions cost what they take.
     */
    private static long chars(Iterable<SubscriptionData> subscriptions) {
        long chars = 0;
        for (SubscriptionData subscription : subscriptions) {
            chars += subscription.topic().length() + length(subscription.subString())
                    + length(subscription.expressionType());
            chars += SUBSCRIPTION_OVERHEAD;
            for (String tag : subscription.tagsSet()) {
                chars += length(tag) + TAG_OVERHEAD;
            }
        }
        return chars;
    }

    /** The memory of a kept tag's string and code objects beyond its characters, in characters. */
    static final int TAG_OVERHEAD = 48;
    /**
     * The memory of a kept subscription beyond its characters, in characters: the subscription object, its entry in
     * the group's map and the objects of its three strings (topic, expression, type), about 200 bytes.
     */
    static final int SUBSCRIPTION_OVERHEAD = 200;

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }

    /** Memberships kept now. */
    synchronized int memberships() {
        return memberships.size();
    }

    /** Why a heartbeat was refused for too many memberships. */
    String membershipRefusal() {
        return memberships.refusal();
    }

    /** Characters the subscriptions of every group hold now. */
    synchronized long subscriptionChars() {
        return subscriptionChars;
    }

    /** Removes a client from a group, as UNREGISTER_CLIENT asks; returns whether it was there. */
    synchronized boolean unregister(String groupName, String clientId) {
        Group group = groups.get(groupName);
        if (group == null) {
            return false;
        }
        boolean removed = group.members.entrySet().removeIf(e -> {
            boolean match = e.getValue().clientId().equals(clientId);
            if (match) {
                memberships.leave(e.getKey(), groupName);
            }
            return match;
        });
        dropIfEmpty(group);
        return removed;
    }

    /** Removes every membership held over a closed connection; returns the groups that changed. */
    synchronized Set<String> connectionClosed(String channelId) {
        Set<String> changed = new HashSet<>();
        for (Group group : List.copyOf(groups.values())) {
            if (group.members.remove(channelId) != null) {
                memberships.leave(channelId, group.name);
                changed.add(group.name);
                dropIfEmpty(group);
            }
        }
        return changed;
    }

    /** Removes members silent for longer than {@code expiry}; returns the groups that changed. */
    synchronized Set<String> expire(Duration expiry) {
        long deadline = clock.millis() - expiry.toMillis();
        Set<String> changed = new HashSet<>();
        for (Group group : List.copyOf(groups.values())) {
            if (group.members.entrySet().removeIf(e -> {
                boolean silent = e.getValue().lastSeenMillis() < deadline;
                if (silent) {
                    memberships.leave(e.getKey(), group.name);
                }
                return silent;
            })) {
                changed.add(group.name);
                LOG.log(System.Logger.Level.INFO, "dropped silent clients of consumer group {0}", group.name);
                dropIfEmpty(group);
            }
        }
        return changed;
    }

    private void dropIfEmpty(Group group) {
        if (group.members.isEmpty() && groups.remove(group.name, group)) {
            subscriptionChars -= group.subscriptionChars;
        }
    }

    /** The ids of the group's live clients, sorted and without duplicates. */
    List<String> clientIds(String groupName) {
        Group group = groups.get(groupName);
        if (group == null) {
            return List.of();
        }
        return group.members.values().stream().map(Member::clientId).distinct().sorted().toList();
    }

    List<RemoteChannel> channels(String groupName) {
        Group group = groups.get(groupName);
        return group == null ? List.of() : new ArrayList<>(group.members.values().stream().map(Member::channel).toList());
    }

    /** The group's live clients, one per connection. */
    List<Member> members(String groupName) {
        Group group = groups.get(groupName);
        return group == null ? List.of() : List.copyOf(group.members.values());
    }

    /** The connection of a live client of the group, by client id. */
    Optional<RemoteChannel> channelOf(String groupName, String clientId) {
        return members(groupName).stream().filter(m -> m.clientId().equals(clientId)).map(Member::channel)
                .findFirst();
    }

    /** The groups whose live clients subscribe to the topic. */
    Set<String> subscribersOf(String topic) {
        Set<String> subscribers = new HashSet<>();
        groups.forEach((name, group) -> {
            if (group.subscriptions.containsKey(topic)) {
                subscribers.add(name);
            }
        });
        return subscribers;
    }

    Optional<Group> group(String groupName) {
        return Optional.ofNullable(groups.get(groupName));
    }

    Optional<SubscriptionData> subscription(String groupName, String topic) {
        Group group = groups.get(groupName);
        return group == null ? Optional.empty() : Optional.ofNullable(group.subscriptions.get(topic));
    }

    Set<String> groupNames() {
        return Set.copyOf(groups.keySet());
    }
}
