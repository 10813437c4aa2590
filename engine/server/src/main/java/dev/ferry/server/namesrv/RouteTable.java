package dev.ferry.server.namesrv;

import dev.ferry.remoting.protocol.body.BrokerData;
import dev.ferry.remoting.protocol.body.ClusterInfo;
import dev.ferry.remoting.protocol.body.DataVersion;
import dev.ferry.remoting.protocol.body.QueueData;
import dev.ferry.remoting.protocol.body.TopicConfig;
import dev.ferry.remoting.protocol.body.TopicRouteData;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
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
 * <p>Thread-safe: registrations and expiry write under one lock, route queries read under it.
 * Time comes from the injected clock, so expiry is tested without waiting.
 */
public final class RouteTable {
    private static final System.Logger LOG = System.getLogger(RouteTable.class.getName());

    /** A registered broker's liveness. */
    private record LiveBroker(String cluster, String brokerName, long brokerId, long lastSeenMillis,
                              DataVersion dataVersion, String channelId, String haServerAddr) {
    }

    private final Clock clock;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, BrokerData> brokers = new HashMap<>();            // brokerName ->
    private final Map<String, Set<String>> clusters = new HashMap<>();          // cluster -> brokerNames
    private final Map<String, Map<String, QueueData>> topics = new HashMap<>(); // topic -> brokerName ->
    private final Map<String, LiveBroker> live = new HashMap<>();               // brokerAddr ->

    public RouteTable(Clock clock) {
        this.clock = clock;
    }

    /**
     * Records a broker's registration (first or periodic) with its topics.
     *
     * @param channelId the connection it registered over, so that closing it drops the broker
     * @return whether its topic configs changed since the last registration
     */
    public boolean register(String cluster, String brokerName, String brokerAddr, long brokerId, String haServerAddr,
                            boolean enableActingMaster, DataVersion dataVersion, Map<String, TopicConfig> topicConfigs,
                            String channelId) {
        lock.writeLock().lock();
        try {
            clusters.computeIfAbsent(cluster, c -> new TreeSet<>()).add(brokerName);
            BrokerData existing = brokers.get(brokerName);
            Map<Long, String> addrs = new TreeMap<>(existing == null ? Map.of() : existing.brokerAddrs());
            // An address moving to another id replaces its old entry.
            addrs.values().removeIf(brokerAddr::equals);
            addrs.put(brokerId, brokerAddr);
            brokers.put(brokerName, new BrokerData(cluster, brokerName, addrs, enableActingMaster));

            LiveBroker previous = live.put(brokerAddr, new LiveBroker(cluster, brokerName, brokerId, clock.millis(),
                    dataVersion, channelId, haServerAddr));
            boolean changed = previous == null || !previous.dataVersion().equals(dataVersion);
            if (changed && brokerId == BrokerData.MASTER_ID) {
                replaceTopics(brokerName, topicConfigs);
            }
            if (previous == null) {
                LOG.log(System.Logger.Level.INFO, "broker {0} ({1}, id {2}) of cluster {3} registered",
                        brokerAddr, brokerName, brokerId, cluster);
            }
            return changed;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private void replaceTopics(String brokerName, Map<String, TopicConfig> topicConfigs) {
        for (Iterator<Map<String, QueueData>> it = topics.values().iterator(); it.hasNext(); ) {
            Map<String, QueueData> byBroker = it.next();
            byBroker.remove(brokerName);
            if (byBroker.isEmpty()) {
                it.remove();
            }
        }
        topicConfigs.forEach((name, config) -> topics.computeIfAbsent(name, t -> new TreeMap<>())
                .put(brokerName, new QueueData(brokerName, config.readQueueNums(), config.writeQueueNums(),
                        config.perm(), config.topicSysFlag())));
    }

    /** Removes one broker, as UNREGISTER_BROKER asks. */
    public void unregister(String brokerAddr) {
        lock.writeLock().lock();
        try {
            LiveBroker gone = live.remove(brokerAddr);
            if (gone != null) {
                drop(brokerAddr, gone, "unregistered");
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes the brokers that registered over a connection that has closed. */
    public void connectionClosed(String channelId) {
        lock.writeLock().lock();
        try {
            for (Iterator<Map.Entry<String, LiveBroker>> it = live.entrySet().iterator(); it.hasNext(); ) {
                Map.Entry<String, LiveBroker> e = it.next();
                if (e.getValue().channelId().equals(channelId)) {
                    it.remove();
                    drop(e.getKey(), e.getValue(), "its connection closed");
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
                if (e.getValue().lastSeenMillis() < deadline) {
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
        LOG.log(System.Logger.Level.INFO, "broker {0} ({1}) removed: {2}", brokerAddr, gone.brokerName(), why);
        BrokerData data = brokers.get(gone.brokerName());
        if (data == null) {
            return;
        }
        Map<Long, String> addrs = new TreeMap<>(data.brokerAddrs());
        addrs.values().removeIf(brokerAddr::equals);
        if (!addrs.isEmpty()) {
            brokers.put(gone.brokerName(), new BrokerData(data.cluster(), data.brokerName(), addrs,
                    data.enableActingMaster()));
            return;
        }
        brokers.remove(gone.brokerName());
        Set<String> names = clusters.get(gone.cluster());
        if (names != null) {
            names.remove(gone.brokerName());
            if (names.isEmpty()) {
                clusters.remove(gone.cluster());
            }
        }
        for (Iterator<Map<String, QueueData>> it = topics.values().iterator(); it.hasNext(); ) {
            Map<String, QueueData> byBroker = it.next();
            byBroker.remove(gone.brokerName());
            if (byBroker.isEmpty()) {
                it.remove();
            }
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

    /** The HA address of the master of {@code brokerName}, for slaves registering. */
    public String masterAddress(String brokerName) {
        lock.readLock().lock();
        try {
            BrokerData data = brokers.get(brokerName);
            return data == null ? null : data.masterAddress();
        } finally {
            lock.readLock().unlock();
        }
    }
}
