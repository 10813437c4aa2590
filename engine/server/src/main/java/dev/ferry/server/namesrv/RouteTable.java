package dev.ferry.server.namesrv;

import dev.ferry.format.Clock;
import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.QueueData;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicList;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * What a name server knows: broker groups, clusters, which broker serves which topic with how
 * many queues, and when each broker last registered.
 *
 * <p>Harder to fool than Apache's, on the same requests:
 * <ul>
 * <li>a registration adds and updates the topics it carries and never removes the ones it omits
 *     (Apache's default too), so an empty or partial registration cannot wipe routes, and a broker
 *     may register its topics in parts;</li>
 * <li>a broker stays registered while any connection it registered over is open: another
 *     connection registering the same address and closing takes nothing away;</li>
 * <li>a broker name and id held by a live broker at another address cannot be taken over until
 *     that broker goes (its connections close, it unregisters, or it falls silent);</li>
 * <li>a live broker's registration is taken only over a connection it registered over, or a new one from the same
 *     source host: a client elsewhere cannot change its routes by naming its address;</li>
 * <li>at most {@code maxTopicsPerBroker} topic routes per broker name, {@code maxBrokersPerAddress} brokers registered
 *     from one source host, {@code maxBrokers} broker addresses and {@code maxTopics} topic routes in all are kept.
 *     When every route is taken, a broker registering a new topic takes a route from the broker with the most, as
 *     long as that one keeps more than it: made-up brokers flooding the table cannot keep a real broker's new topic
 *     from its route.</li>
 * </ul>
 *
 * <p>Thread-safe: registrations and expiry write under one lock, route queries read under it.
 * Time comes from the injected clock, so expiry is tested without waiting.
 */
public final class RouteTable {
    private static final System.Logger LOG = System.getLogger(RouteTable.class.getName());
    /** Connections one broker may have registered over at once that are remembered. */
    private static final int MAX_CHANNELS_PER_BROKER = 8;

    /** What a registration did. */
    public record Outcome(boolean accepted, String refusal, int topicsSkipped) {
        static Outcome refused(String why) {
            return new Outcome(false, why, 0);
        }
    }

    /** A registered broker's liveness and the connections it registered over. */
    private static final class LiveBroker {
        final String cluster;
        final String brokerName;
        final long brokerId;
        final String sourceHost;
        final Set<String> channelIds = new LinkedHashSet<>();
        long lastSeenMillis;
        DataVersion dataVersion;
        String haServerAddr;

        LiveBroker(String cluster, String brokerName, long brokerId, String sourceHost) {
            this.cluster = cluster;
            this.brokerName = brokerName;
            this.brokerId = brokerId;
            this.sourceHost = sourceHost;
        }

        /** Records the connection; false when the broker has as many open ones as it may. */
        boolean seenOver(String channelId) {
            return channelIds.contains(channelId) || channelIds.size() < MAX_CHANNELS_PER_BROKER
                    && channelIds.add(channelId);
        }
    }

    private final Clock clock;
    private final int maxTopics;
    private final int maxTopicsPerBroker;
    private final int maxBrokers;
    private final int maxBrokersPerAddress;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, BrokerData> brokers = new HashMap<>();            // brokerName ->
    private final Map<String, Set<String>> clusters = new HashMap<>();          // cluster -> brokerNames
    private final Map<String, Map<String, QueueData>> topics = new HashMap<>(); // topic -> brokerName ->
    private final Map<String, LiveBroker> live = new HashMap<>();               // brokerAddr ->
    private final Map<String, Set<String>> routed = new HashMap<>();            // brokerName -> its topics, in order
    private final Map<String, Integer> brokersByHost = new HashMap<>();        // source host -> live brokers
    private int routeEntries;
    private boolean fullLogged;

    public RouteTable(Clock clock) {
        this(clock, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    }

    public RouteTable(Clock clock, int maxTopics, int maxTopicsPerBroker, int maxBrokers, int maxBrokersPerAddress) {
        this.clock = clock;
        this.maxTopics = maxTopics;
        this.maxTopicsPerBroker = maxTopicsPerBroker;
        this.maxBrokers = maxBrokers;
        this.maxBrokersPerAddress = maxBrokersPerAddress;
    }

    /**
     * Records a broker's registration (first or periodic) with its topics.
     *
     * @param channelId  the connection it registered over; the broker goes when its last such connection closes
     * @param sourceHost the address that connection comes from
     */
    public Outcome register(String cluster, String brokerName, String brokerAddr, long brokerId, String haServerAddr,
                            boolean enableActingMaster, DataVersion dataVersion, Map<String, TopicConfig> topicConfigs,
                            String channelId, String sourceHost) {
        lock.writeLock().lock();
        try {
            BrokerData existing = brokers.get(brokerName);
            if (existing != null && !existing.cluster().equals(cluster)) {
                return Outcome.refused("broker " + brokerName + " belongs to cluster " + existing.cluster()
                        + "; it cannot register in cluster " + cluster + " too");
            }
            String holder = existing == null ? null : existing.brokerAddrs().get(brokerId);
            if (holder != null && !holder.equals(brokerAddr) && live.containsKey(holder)) {
                return Outcome.refused("broker " + brokerName + " id " + brokerId + " is registered from " + holder
                        + ", which is alive; " + brokerAddr + " may take its place once it has gone");
            }
            LiveBroker broker = live.get(brokerAddr);
            if (broker != null && (!broker.brokerName.equals(brokerName) || !broker.cluster.equals(cluster))) {
                return Outcome.refused(brokerAddr + " is registered as broker " + broker.brokerName + " of cluster "
                        + broker.cluster + "; unregister it first");
            }
            if (broker == null && live.size() >= maxBrokers) {
                return Outcome.refused("the name server keeps " + maxBrokers + " brokers, its maximum");
            }
            if (broker == null && brokersByHost.getOrDefault(sourceHost, 0) >= maxBrokersPerAddress) {
                return Outcome.refused(maxBrokersPerAddress + " brokers are registered from " + sourceHost
                        + ", the most one address may register");
            }
            if (broker != null && !broker.channelIds.contains(channelId) && !broker.sourceHost.equals(sourceHost)) {
                return Outcome.refused(brokerAddr + " is registered from " + broker.sourceHost + "; a connection from "
                        + sourceHost + " cannot register it while it is alive");
            }
            if (broker != null && !broker.channelIds.contains(channelId)
                    && broker.channelIds.size() >= MAX_CHANNELS_PER_BROKER) {
                return Outcome.refused(brokerAddr + " is registered over " + MAX_CHANNELS_PER_BROKER
                        + " open connections already");
            }
            clusters.computeIfAbsent(cluster, c -> new TreeSet<>()).add(brokerName);
            Map<Long, String> addrs = new TreeMap<>(existing == null ? Map.of() : existing.brokerAddrs());
            // An address moving to another id replaces its old entry.
            addrs.values().removeIf(brokerAddr::equals);
            addrs.put(brokerId, brokerAddr);
            brokers.put(brokerName, new BrokerData(cluster, brokerName, addrs, enableActingMaster));

            if (broker == null) {
                broker = new LiveBroker(cluster, brokerName, brokerId, sourceHost);
                live.put(brokerAddr, broker);
                brokersByHost.merge(sourceHost, 1, Integer::sum);
                LOG.log(System.Logger.Level.INFO, "broker {0} ({1}, id {2}) of cluster {3} registered",
                        brokerAddr, brokerName, brokerId, cluster);
            }
            broker.lastSeenMillis = clock.millis();
            broker.dataVersion = dataVersion;
            broker.haServerAddr = haServerAddr;
            broker.seenOver(channelId);
            int skipped = brokerId == BrokerData.MASTER_ID ? mergeTopics(brokerName, topicConfigs) : 0;
            return new Outcome(true, null, skipped);
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Adds or updates the broker's queues of each topic; omitted topics stay. Returns the topics not kept. */
    private int mergeTopics(String brokerName, Map<String, TopicConfig> topicConfigs) {
        int skipped = 0;
        Set<String> mine = routed.computeIfAbsent(brokerName, b -> new LinkedHashSet<>());
        for (Map.Entry<String, TopicConfig> entry : topicConfigs.entrySet()) {
            TopicConfig config = entry.getValue();
            QueueData queues = new QueueData(brokerName, config.readQueueNums(), config.writeQueueNums(),
                    config.perm(), config.topicSysFlag());
            Map<String, QueueData> byBroker = topics.get(entry.getKey());
            if (byBroker == null || !byBroker.containsKey(brokerName)) {
                if (mine.size() >= maxTopicsPerBroker || routeEntries >= maxTopics && !takeRouteForOneWith(mine)) {
                    skipped++;
                    continue;
                }
                routeEntries++;
                mine.add(entry.getKey());
                if (byBroker == null) {
                    byBroker = new TreeMap<>();
                    topics.put(entry.getKey(), byBroker);
                }
            }
            byBroker.put(brokerName, queues);
        }
        if (mine.isEmpty()) {
            routed.remove(brokerName);
        }
        if (skipped > 0 && !fullLogged) {
            fullLogged = true;
            LOG.log(System.Logger.Level.WARNING, "{0} topics of broker {1} have no route: a broker may have {2} "
                    + "(nameServerMaxTopicsPerBroker), all brokers {3} (nameServerMaxTopics)", skipped, brokerName,
                    maxTopicsPerBroker, maxTopics);
        }
        return skipped;
    }

    /**
     * Every route is taken: the broker with the most gives its oldest one up, if it keeps more than a broker with
     * {@code mine} will then have. Its next registration may bring the topic back only by the same rule.
     */
    private boolean takeRouteForOneWith(Set<String> mine) {
        Map.Entry<String, Set<String>> largest = null;
        for (Map.Entry<String, Set<String>> candidate : routed.entrySet()) {
            if (largest == null || candidate.getValue().size() > largest.getValue().size()) {
                largest = candidate;
            }
        }
        if (largest == null || largest.getValue().size() <= mine.size() + 1) {
            return false;
        }
        removeRoute(largest.getValue().iterator().next(), largest.getKey());
        return true;
    }

    /** Removes the route of {@code topic} on {@code brokerName}, if it has one. */
    private void removeRoute(String topic, String brokerName) {
        Map<String, QueueData> byBroker = topics.get(topic);
        if (byBroker == null || byBroker.remove(brokerName) == null) {
            return;
        }
        routeEntries--;
        if (byBroker.isEmpty()) {
            topics.remove(topic);
        }
        Set<String> ofBroker = routed.get(brokerName);
        if (ofBroker != null) {
            ofBroker.remove(topic);
            if (ofBroker.isEmpty()) {
                routed.remove(brokerName);
            }
        }
    }

    /**
     * Removes one broker, as UNREGISTER_BROKER asks, when asked over a connection it registered over (as brokers
     * unregister); returns why not, or {@code null}.
     */
    public String unregister(String brokerAddr, String channelId) {
        lock.writeLock().lock();
        try {
            LiveBroker broker = live.get(brokerAddr);
            if (broker == null) {
                return null;
            }
            if (!broker.channelIds.contains(channelId)) {
                return brokerAddr + " registered over another connection; only the broker may unregister it";
            }
            live.remove(brokerAddr);
            drop(brokerAddr, broker, "unregistered");
            return null;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A connection closed: brokers registered over it and no other open one are removed. */
    public void connectionClosed(String channelId) {
        lock.writeLock().lock();
        try {
            for (Iterator<Map.Entry<String, LiveBroker>> it = live.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, LiveBroker> e = it.next();
                LiveBroker broker = e.getValue();
                if (broker.channelIds.remove(channelId) && broker.channelIds.isEmpty()) {
                    it.remove();
                    drop(e.getKey(), broker, "its connection closed");
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes brokers that have not registered for {@code expiry}. */
    public int expire(Duration expiry) {
        long deadline = clock.millis() - expiry.toMillis();
        int removed = 0;
        lock.writeLock().lock();
        try {
            for (Iterator<Map.Entry<String, LiveBroker>> it = live.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, LiveBroker> e = it.next();
                if (e.getValue().lastSeenMillis < deadline) {
                    it.remove();
                    drop(e.getKey(), e.getValue(), "silent for more than " + expiry.toSeconds() + " s");
                    removed++;
                }
            }
        } finally {
            lock.writeLock().unlock();
        }
        return removed;
    }

    private void drop(String brokerAddr, LiveBroker gone, String why) {
        LOG.log(System.Logger.Level.INFO, "broker {0} ({1}) removed: {2}", brokerAddr, gone.brokerName, why);
        brokersByHost.computeIfPresent(gone.sourceHost, (host, n) -> n == 1 ? null : n - 1);
        BrokerData data = brokers.get(gone.brokerName);
        if (data == null) {
            return;
        }
        Map<Long, String> addrs = new TreeMap<>(data.brokerAddrs());
        addrs.values().removeIf(brokerAddr::equals);
        if (!addrs.isEmpty()) {
            brokers.put(gone.brokerName, new BrokerData(data.cluster(), data.brokerName(), addrs,
                    data.enableActingMaster()));
            return;
        }
        brokers.remove(gone.brokerName);
        Set<String> names = clusters.get(gone.cluster);
        if (names != null) {
            names.remove(gone.brokerName);
            if (names.isEmpty()) {
                clusters.remove(gone.cluster);
            }
        }
        for (String topic : List.copyOf(routed.getOrDefault(gone.brokerName, Set.of()))) {
            removeRoute(topic, gone.brokerName);
        }
    }

    /** The route of a topic, or {@code null} when no live broker serves it. */
    public TopicRouteData route(String topic) {
        lock.readLock().lock();
        try {
            Map<String, QueueData> byBroker = topics.get(topic);
            if (byBroker == null || byBroker.isEmpty()) {
                return null;
            }
            List<QueueData> queues = new ArrayList<>();
            List<BrokerData> brokerDatas = new ArrayList<>();
            for (QueueData queue : byBroker.values()) {
                BrokerData broker = brokers.get(queue.brokerName());
                if (broker != null) {
                    queues.add(queue);
                    brokerDatas.add(broker);
                }
            }
            return brokerDatas.isEmpty() ? null : new TopicRouteData(queues, brokerDatas, Map.of());
        } finally {
            lock.readLock().unlock();
        }
    }

    public ClusterInfo clusterInfo() {
        lock.readLock().lock();
        try {
            Map<String, Set<String>> clusterCopy = new HashMap<>();
            clusters.forEach((cluster, names) -> clusterCopy.put(cluster, new HashSet<>(names)));
            return new ClusterInfo(new HashMap<>(brokers), clusterCopy);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The address of the master of {@code brokerName}, for slaves registering. */
    public String masterAddress(String brokerName) {
        lock.readLock().lock();
        try {
            BrokerData data = brokers.get(brokerName);
            return data == null ? null : data.masterAddress();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The HA address the master of {@code brokerName} registered, for its slaves; null when it has none. */
    public String masterHaAddress(String brokerName) {
        lock.readLock().lock();
        try {
            BrokerData data = brokers.get(brokerName);
            String master = data == null ? null : data.masterAddress();
            LiveBroker broker = master == null ? null : live.get(master);
            return broker == null ? null : broker.haServerAddr;
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * What Apache's name server calls its system topics (GET_SYSTEM_TOPIC_LIST_FROM_NS): the cluster and broker names,
     * and the address of a broker that lists the broker's own.
     */
    public TopicList systemTopics() {
        lock.readLock().lock();
        try {
            Set<String> names = new TreeSet<>();
            clusters.forEach((cluster, brokerNames) -> {
                names.add(cluster);
                names.addAll(brokerNames);
            });
            String anyBroker = brokers.values().stream().map(BrokerData::masterAddress).filter(a -> a != null)
                    .findFirst().orElse(null);
            return new TopicList(List.copyOf(names), anyBroker);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Every topic with a route, sorted. */
    public List<String> topicNames() {
        lock.readLock().lock();
        try {
            return List.copyOf(new TreeSet<>(topics.keySet()));
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Drops a topic's route, as DELETE_TOPIC_IN_NAMESRV asks: its queues on the brokers of {@code cluster}, or, without
     * a cluster, everywhere. Returns how many route entries went. A broker that still serves the topic brings it back
     * with its next registration, as in Apache: delete it from the brokers first.
     */
    public int deleteTopic(String topic, String cluster) {
        lock.writeLock().lock();
        try {
            Map<String, QueueData> byBroker = topics.get(topic);
            if (byBroker == null) {
                return 0;
            }
            Set<String> names = cluster == null || cluster.isBlank() ? null : clusters.getOrDefault(cluster, Set.of());
            List<String> going = byBroker.keySet().stream().filter(name -> names == null || names.contains(name))
                    .toList();
            going.forEach(name -> removeRoute(topic, name));
            return going.size();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Topic routes kept (one per topic and broker name). */
    public int routeEntries() {
        lock.readLock().lock();
        try {
            return routeEntries;
        } finally {
            lock.readLock().unlock();
        }
    }
}
